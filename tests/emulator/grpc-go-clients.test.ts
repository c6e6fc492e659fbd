/**
 * The emulator's gRPC face judged by a client we did not write: the platform's own Go
 * clients (chainguard.dev/sdk) run the scenario of `contract/grpcscenario` against
 * `dist/emulator/cli.js`, over gRPC and over HTTP. Without Go it is skipped with one
 * line, except in CI, where that is a failure. Needs `dist/` (`npm test` builds it).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const goFound = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;

describe("gRPC face, judged by the platform's Go clients", () => {
  if (!goFound) {
    it("needs Go", () => {
      if (process.env.CI) throw new Error("the Go client scenario needs Go on PATH in CI");
      console.log("gRPC Go client scenario skipped: go is not on PATH");
    });
    return;
  }

  it("passes go test ./grpcscenario in contract/", () => {
    const run = spawnSync("go", ["test", "-count=1", "-v", "./grpcscenario/"], {
      cwd: join(root, "contract"),
      encoding: "utf8",
      env: { ...process.env, IRM_GRPC_SCENARIO: "1" },
      maxBuffer: 16 * 1024 * 1024,
      timeout: 170_000,
    });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.status !== 0) {
      const kept = output
        .split("\n")
        .filter((line) => /--- FAIL|_test\.go:\d+:|^(FAIL|panic)\b/.test(line));
      expect.fail(`go test ./grpcscenario failed:\n${kept.join("\n") || output.slice(-4000)}`);
    }
    // Every scenario ran: none was skipped (a skip would mean no emulator or no gRPC face).
    expect(output).not.toMatch(/--- SKIP/);
    expect(output).toMatch(/--- PASS: TestGRPCScenario/);
  }, 180_000);
});
