import { defineConfig } from "vitest/config";
import LongFilesFirst from "./tests/support/real-engine/sequencer";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/real-engine/global-setup.ts"],
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
  },
});
