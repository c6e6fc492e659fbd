/**
 * The launchers `npm run pulumi:install` writes beside the CLI it builds: the dynamic
 * provider host resolves `@pulumi/pulumi` from the program's folder or any folder
 * above it, as Node.js would, and says plainly when it is not installed.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../harness/installed-package";
import { describeOnEngine } from "../support/engine-stack";

/** Runs a launcher from `cwd` until its first stdout line (a port) or its exit. */
function launch(
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ line?: string; code?: number | null; stderr: string }> {
  const launcher = path.join(inject("realEngine").cliRoot, "bin", "pulumi-resource-pulumi-nodejs");
  return new Promise((resolve, reject) => {
    // The engine passes its own address; the host only dials it to log.
    const child = spawn(launcher, ["127.0.0.1:1"], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf("\n");
      if (newline >= 0) {
        child.kill();
        resolve({ line: stdout.slice(0, newline), stderr });
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

describeOnEngine("the CLI's launchers", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "irm-launchers-"));
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("start the dynamic provider host found in a folder above the program's", async () => {
    const program = path.join(scratch, "with-modules", "infra", "stacks");
    fs.mkdirSync(program, { recursive: true });
    fs.symlinkSync(
      path.join(REPO_ROOT, "node_modules"),
      path.join(scratch, "with-modules", "node_modules"),
    );
    const started = await launch(program);
    // The host prints the port it listens on, and nothing else, as its first line.
    expect(started.line).toMatch(/^\d+$/);
  });

  it("resolve from the program's real folder, not from the link it was reached through", async () => {
    // Node.js resolves from process.cwd(), the physical folder: a node_modules above
    // the link (and not above the folder itself) is not the program's.
    const real = path.join(scratch, "real-program");
    fs.mkdirSync(real);
    const links = path.join(scratch, "links");
    fs.mkdirSync(links);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(links, "node_modules"));
    const linked = path.join(links, "linked-program");
    fs.symlinkSync(real, linked);
    const failed = await launch(linked, { ...process.env, PWD: linked });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("@pulumi/pulumi is not installed in");
  });

  it("say which folder lacks @pulumi/pulumi when none above it has it", async () => {
    const bare = path.join(scratch, "bare");
    fs.mkdirSync(bare);
    const failed = await launch(bare);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      `pulumi-resource-pulumi-nodejs: @pulumi/pulumi is not installed in ${bare}`,
    );
  });
});
