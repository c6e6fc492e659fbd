/**
 * docs/emulator.md's Go program, run as written against a running emulator: the code
 * block copied into a module of its own that requires what `contract/` requires (the
 * platform's `chainguard.dev/sdk`, from Go's module cache, nothing fetched), with the
 * bootstrap file at the path the page names replaced by this test's. Skipped without Go
 * (a failure in CI or with IRM_REQUIRE_GO=1, as the contract suite).
 */
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { descriptorFilePath } from "../../emulator/grpc/descriptors";
import { startEmulator } from "../../emulator/index";
import { REPO_ROOT } from "../../harness/installed-package";

const goFound = spawnSync("go", ["version"], { encoding: "utf8" }).status === 0;
const required = Boolean(process.env.CI) || process.env.IRM_REQUIRE_GO === "1";

/** The one ```go block of docs/emulator.md that is a whole program. */
function documentedProgram(): string {
  const page = fs.readFileSync(path.join(REPO_ROOT, "docs", "emulator.md"), "utf8");
  const programs = [...page.matchAll(/```go\n([\s\S]*?)```/g)]
    .map((match) => match[1])
    .filter((code) => code.startsWith("package main\n"));
  expect(programs).toHaveLength(1);
  return programs[0];
}

describe.runIf(goFound || required)("docs/emulator.md's Go program", () => {
  it("builds and lists the emulator's groups over gRPC, as written", async () => {
    expect(goFound, "Go on PATH").toBe(true);
    expect(descriptorFilePath(), "the built descriptor set").toBeDefined();
    const program = documentedProgram();
    expect(program).toContain('"/tmp/irm.json"');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-go-example-"));
    const emu = await startEmulator({ host: "127.0.0.1", port: 0 });
    try {
      const bootstrap = path.join(dir, "irm.json");
      fs.writeFileSync(bootstrap, JSON.stringify(emu.bootstrap));
      fs.writeFileSync(
        path.join(dir, "main.go"),
        program.replace('"/tmp/irm.json"', JSON.stringify(bootstrap)),
      );
      // The contract module's requirements, under another module name.
      const contract = path.join(REPO_ROOT, "contract");
      const goMod = fs
        .readFileSync(path.join(contract, "go.mod"), "utf8")
        .replace(/^module .*$/m, "module my-tool");
      fs.writeFileSync(path.join(dir, "go.mod"), goMod);
      fs.copyFileSync(path.join(contract, "go.sum"), path.join(dir, "go.sum"));
      const output = await new Promise<string>((resolve, reject) =>
        execFile(
          "go",
          ["run", "."],
          {
            cwd: dir,
            env: { ...process.env, GOFLAGS: "-mod=mod", GOPROXY: "off" },
            timeout: 240_000,
          },
          (error, stdout, stderr) =>
            error ? reject(new Error(`${stderr}\n${error.message}`)) : resolve(stdout),
        ),
      );
      expect(output).toContain(`${emu.bootstrap.rootGroupUid} `);
    } finally {
      await emu.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
