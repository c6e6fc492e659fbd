import { defineConfig } from "vitest/config";

/**
 * The slow half of the reliability suite (`npm run test:reliability`, and CI): fault
 * injection over whole deployments, restarts and concurrent load. The fast half
 * (`tests/reliability/fast/`) runs with every `npm test`. The deployment scenarios run
 * on the real Pulumi engine: the global setup finds the CLI (`npm run pulumi:install`)
 * and installs the packed package once for the run.
 */
export default defineConfig({
  test: {
    include: ["tests/reliability/slow/**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**"],
    globalSetup: ["tests/support/real-engine/global-setup.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two cores: one heavy scenario at a time keeps each one's figures undisturbed.
    fileParallelism: false,
    reporters: ["default", "json"],
    outputFile: { json: ".tmp/vitest-reliability-results.json" },
  },
});
