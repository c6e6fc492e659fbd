/**
 * The recommended start of a TypeScript program (docs/provider.md, "A fast start"), on
 * the real CLI: the setup files of an example (`Pulumi.yaml`'s `tsconfig` option,
 * `tsconfig.json`, `tsconfig.pulumi.json`) with a program holding a type error. `pulumi
 * preview` runs it without type-checking (transpile only: the program's output shows),
 * as users run it (no `PULUMI_NODEJS_TRANSPILE_ONLY`, which the harness sets for its own
 * stacks); the same files without the `tsconfig` option stop at the type error; and the
 * project's `typecheck` script (`tsc --noEmit`) still reports it.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../harness/installed-package";
import { ensureInstalledBase } from "../../harness/real-engine/installed-base";
import { describeOnEngine } from "../support/engine-stack";

const EXAMPLE = path.join(REPO_ROOT, "examples", "github-actions");

/** Runs by transpiling only; `tsc` sees the string assigned to a number. */
const PROGRAM = [
  'import * as pulumi from "@pulumi/pulumi";',
  'const count: number = "three";',
  'pulumi.log.info("program ran: " + count);',
  "export const ran = count;",
  "",
].join("\n");

describeOnEngine("the recommended TypeScript start", { shuffle: false }, () => {
  let scratch: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const context = inject("realEngine");
    await ensureInstalledBase(context.base);
    // Below the installed base: `pulumi-irm`, `@pulumi/pulumi` and TypeScript are found by walking up.
    scratch = fs.mkdtempSync(path.join(context.base, "typescript-start-"));
    const home = path.join(scratch, "home");
    const backend = path.join(scratch, "backend");
    fs.mkdirSync(home);
    fs.mkdirSync(backend);
    env = { ...process.env };
    for (const key of Object.keys(env)) if (key.startsWith("PULUMI_")) delete env[key];
    Object.assign(env, {
      PATH: `${path.join(context.cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    });
  }, 300_000);

  afterAll(() => {
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** A project from the example's setup files and PROGRAM; `Pulumi.yaml` as `edit` leaves it. */
  function project(name: string, edit: (yaml: string) => string = (yaml) => yaml): string {
    const dir = path.join(scratch, name);
    fs.mkdirSync(dir);
    for (const file of ["Pulumi.yaml", "tsconfig.json", "tsconfig.pulumi.json"]) {
      const text = fs.readFileSync(path.join(EXAMPLE, file), "utf8");
      fs.writeFileSync(path.join(dir, file), file === "Pulumi.yaml" ? edit(text) : text);
    }
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    return dir;
  }

  async function sh(dir: string, command: string): Promise<{ status: number; output: string }> {
    const child = spawn("bash", ["-c", command], { cwd: dir, env, timeout: 240_000 });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const status = await new Promise<number>((resolve) =>
      child.on("close", (c) => resolve(c ?? 1)),
    );
    return { status, output };
  }

  it("the example's Pulumi.yaml points the runner at tsconfig.pulumi.json", () => {
    const yaml = fs.readFileSync(path.join(EXAMPLE, "Pulumi.yaml"), "utf8");
    expect(yaml).toMatch(/^ {4}tsconfig: tsconfig\.pulumi\.json$/m);
  });

  it("pulumi preview runs the program without type-checking it", async () => {
    const dir = project("recommended");
    // One backend, one project name: a stack each.
    expect((await sh(dir, "pulumi stack init recommended --non-interactive")).status).toBe(0);
    const preview = await sh(dir, "pulumi preview --non-interactive --color never");
    expect(preview.output).not.toContain("TS2322");
    expect(preview.output).toContain("program ran: three");
    expect(preview.status, preview.output).toBe(0);
  }, 300_000);

  it("without the tsconfig option, the same program stops at its type error", async () => {
    const dir = project("checked", (yaml) => yaml.replace(/^ {4}tsconfig: .*\n/m, ""));
    expect((await sh(dir, "pulumi stack init checked --non-interactive")).status).toBe(0);
    const preview = await sh(dir, "pulumi preview --non-interactive --color never");
    expect(preview.status).not.toBe(0);
    expect(preview.output).toContain("TS2322");
    expect(preview.output).not.toContain("program ran");
  }, 300_000);

  it("the project's typecheck script still reports the type error", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(EXAMPLE, "package.json"), "utf8")) as {
      scripts?: Record<string, string>;
    };
    expect(manifest.scripts?.typecheck).toBe("tsc --noEmit");
    const dir = path.join(scratch, "recommended");
    const tsc = require.resolve("typescript/bin/tsc", { paths: [dir] });
    const check = await sh(dir, `"${process.execPath}" "${tsc}" --noEmit`);
    expect(check.status).not.toBe(0);
    expect(check.output).toContain("TS2322");
  }, 300_000);
});
