import { defineConfig } from "vitest/config";
import LongFilesFirst from "./tests/support/real-engine/sequencer";

/**
 * Two tiers, chosen by folder (tests/README.md):
 * - `fast`: every test that needs no Pulumi engine (`npm run test:fast`). Its global
 *   setup offers no CLI, and the engine entry points (`describeOnEngine`,
 *   `createEngineStack`) refuse to run in it, so a file that needs the engine fails
 *   here instead of quietly skipping.
 * - `engine`: the scenarios on the real Pulumi CLI (`npm run test:engine`), in
 *   `tests/engine/`, and `tests/native/` for the native provider plugin's scenarios
 *   (YAML, Python).
 * `npm test` runs both, into one JSON results file (.ci/run counts it).
 */
export const ENGINE_TIER = ["tests/engine/**/*.test.ts", "tests/native/**/*.test.ts"];

export default defineConfig({
  test: {
    exclude: ["tests/reliability/slow/**", "node_modules/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Each worker loads the modules once for all its files instead of once per file:
    // importing the package, @pulumi/pulumi and the emulator again for each of a hundred
    // short files cost about 120 s of CPU. Files must therefore leave no state behind
    // (env stubs undone, servers closed, mocks restored): `npx vitest run --isolate`
    // runs each file in a fresh process, as before.
    isolate: false,
    // Two files at a time on two cores: a real-engine scenario spends much of its time
    // waiting on its child processes (CLI, language host, provider host).
    maxWorkers: 2,
    // As many kept as started: with workers reused across files, a pool that lets one
    // go idle and end (vitest's default minimum here is one) can end it as a file is
    // handed to it ("Terminating worker thread", seen with three workers).
    minWorkers: 2,
    // The engine scenarios first, so that no long file is left to run alone at the end.
    sequence: { sequencer: LongFilesFirst },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["tests/**/*.test.ts"],
          exclude: [...ENGINE_TIER, "tests/reliability/slow/**", "node_modules/**", "dist/**"],
          globalSetup: ["tests/support/tiers/fast-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "engine",
          include: ENGINE_TIER,
          globalSetup: ["tests/support/real-engine/global-setup.ts"],
        },
      },
    ],
  },
});
