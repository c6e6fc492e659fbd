/**
 * Runs the Go modules `contract/` and `contract/head/` as part of `npm test`, each in one
 * `go test ./...` (one build, the packages in parallel): the contract suite over the
 * platform's published definitions, and the emulator's gRPC face judged by a client we
 * did not write (the platform's own Go clients, chainguard.dev/sdk, run the scenario of
 * `contract/grpcscenario` against `dist/emulator/cli.js`, over gRPC and over HTTP; those
 * of the newer revision, v0.1.212, run `contract/head/registryscenario` and
 * `contract/head/iamscenario`, the registry writes and IAM calls only that revision has).
 * Without Go on PATH it is skipped with one line, except in CI or with IRM_REQUIRE_GO=1,
 * where that is a failure. Needs `dist/`, which `npm test` builds first.
 *
 * Both modules run at once (their scenarios mostly wait on the emulators they start).
 * Go caches builds, the vet pass and test results. A result is keyed by the test binary,
 * the files the test opened and the environment variables it read; the emulator and the
 * SDK the tests run live outside the modules, so this file passes IRM_CONTRACT_INPUTS, a
 * digest of them (`dist/`, the TypeScript sources, the lockfile, the Node version), which
 * every test reaching outside its module reads (emulatorproc.RepositoryRoot): a cached
 * PASS stands only for the same emulator and SDK. IRM_CONTRACT_NO_CACHE=1 runs every
 * test again (`-count=1`).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = join(__dirname, "..", "..");
const goFound = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
const required = Boolean(process.env.CI) || process.env.IRM_REQUIRE_GO === "1";

/** The folders and files outside the Go modules whose content the tests run. */
const INPUTS = [
  "dist",
  "emulator",
  "sdk",
  "provider",
  "contract/driver",
  "package-lock.json",
  "tsconfig.json",
];

/** A digest of INPUTS (paths and contents) and of the Node version running them. */
function contractInputsDigest(): string {
  const hash = createHash("sha256").update(process.version);
  const add = (path: string): void => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else {
      hash.update(`\0${relative(root, path)}\0`).update(readFileSync(path));
    }
  };
  for (const input of INPUTS) add(join(root, input));
  return hash.digest("hex");
}

/** `go test -v ./...` in a module, its output and exit status. */
function goTest(
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | string; output: string }> {
  const args = [
    "test",
    ...(process.env.IRM_CONTRACT_NO_CACHE === "1" ? ["-count=1"] : []),
    "-v",
    "./...",
  ];
  return new Promise((resolve) => {
    const child = spawn("go", args, { cwd, env: { ...process.env, ...env } });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 170_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ status: code ?? signal ?? "unknown", output });
    });
  });
}

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

  let contract: ReturnType<typeof goTest>;
  let head: ReturnType<typeof goTest>;
  beforeAll(() => {
    const IRM_CONTRACT_INPUTS = contractInputsDigest();
    contract = goTest(join(root, "contract"), {
      IRM_CONTRACT_UPDATE_DOCS: "",
      IRM_GRPC_SCENARIO: "1",
      IRM_CONTRACT_INPUTS,
    });
    head = goTest(join(root, "contract", "head"), { IRM_GRPC_SCENARIO: "1", IRM_CONTRACT_INPUTS });
    // Neither rejects; a failure is reported by its own test.
  });

  it("passes go test ./... in contract/, every gRPC scenario run", async () => {
    const run = await contract;
    const output = run.output;
    if (run.status !== 0) {
      expect.fail(`go test in contract/ failed (exit ${run.status}):\n${failingLines(output)}`);
    }
    // Every scenario ran: none was skipped (a skip would mean no emulator or no gRPC face).
    expect(output).not.toMatch(/--- SKIP/);
    for (const scenario of ["TestGRPCScenario", "TestHTTPLeavesTheSameState", "TestV1Lists"]) {
      expect(output).toMatch(new RegExp(`--- PASS: ${scenario} `));
    }
    expect(output).toMatch(/^ok\s+pulumi-irm\/contract\s/m);
    expect(output).toMatch(/^ok\s+pulumi-irm\/contract\/grpcscenario\s/m);
  }, 180_000);

  it("passes go test ./... in contract/head/: the newer revision's clients, every scenario run", async () => {
    const run = await head;
    const output = run.output;
    if (run.status !== 0) {
      expect.fail(
        `go test in contract/head/ failed (exit ${run.status}):\n${failingLines(output)}`,
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
