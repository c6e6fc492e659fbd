import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/real-engine/global-setup.ts"],
    exclude: ["tests/reliability/slow/**", "node_modules/**", "dist/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
