/**
 * Runs the contract suite (`contract/`, a Go module over the platform's published
 * definitions) as part of `npm test`. Without Go on PATH it is skipped with one line,
 * except in CI or with IRM_REQUIRE_GO=1, where that is a failure. Needs `dist/` (the
 * emulator judge starts `dist/emulator/cli.js`), which `npm test` builds first.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const goFound = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
const required = Boolean(process.env.CI) || process.env.IRM_REQUIRE_GO === "1";

/** The lines of `go test -v` output that say what failed. */
function failingLines(output: string): string {
  const lines = output.split("\n");
  const kept = lines.filter(
    (line) =>
      /^\s*--- FAIL/.test(line) ||
      /^\s+\S+_test\.go:\d+:/.test(line) ||
      /^(FAIL|panic|ok)\b/.test(line) ||
      /^\s{8,}\S/.test(line),
  );
  return (kept.length > 0 ? kept : lines.slice(-40)).join("\n");
}

describe("contract suite (official definitions)", () => {
  if (!goFound) {
    it("needs Go", () => {
      if (required) {
        throw new Error("the contract suite needs Go on PATH (CI or IRM_REQUIRE_GO=1)");
      }
      console.log("contract suite skipped: go is not on PATH (set IRM_REQUIRE_GO=1 to require it)");
    });
    return;
  }

  it("passes go test ./... in contract/", () => {
    const run = spawnSync("go", ["test", "-count=1", "-v", "./..."], {
      cwd: join(root, "contract"),
      encoding: "utf8",
      env: { ...process.env, IRM_CONTRACT_UPDATE_DOCS: "" },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 170_000,
    });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.status !== 0) {
      expect.fail(
        `go test in contract/ failed (exit ${run.status ?? run.signal}):\n${failingLines(output)}`,
      );
    }
  }, 180_000);
});
