/**
 * Runs the Go modules `contract/` and `contract/head/` as part of `npm test`, each in one
 * `go test ./...` (one build, the packages in parallel): the contract suite over the
 * platform's published definitions, and the emulator's gRPC face judged by a client we
 * did not write (the platform's own Go clients, chainguard.dev/sdk, run the scenario of
 * `contract/grpcscenario` against `dist/emulator/cli.js`, over gRPC and over HTTP; those
 * of the newer revision, v0.1.212, run `contract/head/registryscenario` and
 * `contract/head/iamscenario`, the registry writes and IAM calls only that revision has).
 * Without Go on PATH it is skipped with one line, except in CI or with IRM_REQUIRE_GO=1,
 * where that is a failure. Needs `dist/`, which `npm test` builds first. Results are not
 * cached (`-count=1`): the emulator under test lives outside the module, so Go cannot
 * tell when it changed. Builds and `go test`'s vet pass are cached by Go.
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

describe("contract suite (official definitions) and the gRPC face (platform Go clients)", () => {
  if (!goFound) {
    it("needs Go", () => {
      if (required) {
        throw new Error("the contract suite needs Go on PATH (CI or IRM_REQUIRE_GO=1)");
      }
      console.log("contract suite skipped: go is not on PATH (set IRM_REQUIRE_GO=1 to require it)");
    });
    return;
  }

  it("passes go test ./... in contract/, every gRPC scenario run", () => {
    const run = spawnSync("go", ["test", "-count=1", "-v", "./..."], {
      cwd: join(root, "contract"),
      encoding: "utf8",
      env: { ...process.env, IRM_CONTRACT_UPDATE_DOCS: "", IRM_GRPC_SCENARIO: "1" },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 170_000,
    });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.status !== 0) {
      expect.fail(
        `go test in contract/ failed (exit ${run.status ?? run.signal}):\n${failingLines(output)}`,
      );
    }
    // Every scenario ran: none was skipped (a skip would mean no emulator or no gRPC face).
    expect(output).not.toMatch(/--- SKIP/);
    for (const scenario of ["TestGRPCScenario", "TestHTTPLeavesTheSameState", "TestV1Lists"]) {
      expect(output).toMatch(new RegExp(`--- PASS: ${scenario} `));
    }
    expect(output).toMatch(/^ok\s+pulumi-irm\/contract\s/m);
    expect(output).toMatch(/^ok\s+pulumi-irm\/contract\/grpcscenario\s/m);
  }, 180_000);

  it("passes go test ./... in contract/head/: the newer revision's clients, every scenario run", () => {
    const run = spawnSync("go", ["test", "-count=1", "-v", "./..."], {
      cwd: join(root, "contract", "head"),
      encoding: "utf8",
      env: { ...process.env, IRM_GRPC_SCENARIO: "1" },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 170_000,
    });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}`;
    if (run.status !== 0) {
      expect.fail(
        `go test in contract/head/ failed (exit ${run.status ?? run.signal}):\n${failingLines(output)}`,
      );
    }
    expect(output).not.toMatch(/--- SKIP/);
    for (const scenario of [
      "TestRegistryWritesOverGRPC",
      "TestRegistryWritesOverHTTP",
      "TestSubscriptionsOverGRPC",
      "TestV1ReposOverHTTP",
      "TestBatchCreateRoleBindingsOverGRPC",
      "TestScimOverGRPC",
      "TestExternalGroupRoleMappingsOverGRPC",
      "TestTermsOverGRPC",
      "TestIdentityAndGroupCallsOverGRPC",
      "TestIAMOverHTTP",
      "TestRootsAreHeadGRPCServices",
    ]) {
      expect(output).toMatch(new RegExp(`--- PASS: ${scenario} `));
    }
  }, 180_000);
});
