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
    // Two files at a time on two cores: a real-engine scenario spends much of its time
    // waiting on its child processes (CLI, language host, provider host).
    maxWorkers: 2,
    // The engine scenarios first, so that no long file is left to run alone at the end.
    sequence: { sequencer: LongFilesFirst },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
