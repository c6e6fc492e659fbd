/**
 * README.md's "Use it", followed literally in a fresh folder, on the real CLI: its four
 * files written from its code blocks, its commands run one by one, the package installed
 * from the tarball `npm pack` made (the run's installed base's), the rest from the
 * registry as a user gets it. The only changes to the commands are what a test must
 * fill in: the tarball for the name `pulumi-irm`, the emulator's address, root group and
 * token for the placeholders, `--yes` for the prompt of `pulumi up`, and a backend and
 * Pulumi home in the test's folder instead of `--local` (which is the user's home, as
 * the CLI reads it from the system, not from `HOME`). The README's `npm run typecheck`
 * type-checks the program with the TypeScript it installs (the newest 6.x), and `up`
 * transpiles it with that one; a type check and a preview then do with the newest 5.x,
 * the other version the README names.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { readOrganisation } from "../../harness/org-snapshot";
import { ensureInstalledBase, packedTarball } from "../../harness/real-engine/installed-base";
import { describeOnEngine } from "../support/engine-stack";

/** The text of `## <title>` in README.md, up to the next section. */
function readmeSection(title: string): string {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`README.md has no section "${title}"`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/**
 * The code blocks of a section: each `file` block after a line naming the file
 * (`` `tsconfig.json`: ``), and the shell block's commands.
 */
function readmeSteps(section: string): { files: Record<string, string>; commands: string[] } {
  const files: Record<string, string> = {};
  const commands: string[] = [];
  for (const match of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    const [, lang, body] = match;
    if (lang === "sh") {
      commands.push(...body.split("\n").filter((line) => line.trim() !== ""));
      continue;
    }
    const before = section.slice(0, match.index).trimEnd().split("\n").pop() ?? "";
    const named = /`([^`]+)`:?$/.exec(before);
    if (!named) throw new Error(`no file named before the ${lang} block: ${before}`);
    files[named[1]] = body;
  }
  return { files, commands };
}

describeOnEngine("README.md's Use it, followed literally", { shuffle: false }, () => {
  let emulator: TestEmulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let tarball: string;
  let backend: string;

  beforeAll(async () => {
    const context = inject("realEngine");
    await ensureInstalledBase(context.base);
    tarball = packedTarball(context.base);
    emulator = await startTestEmulator();
    // Outside the installed base: nothing is found by walking up but what the steps install.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-readme-"));
    const project = path.join(dir, "my-org");
    const home = path.join(dir, "home");
    backend = path.join(dir, "backend");
    for (const folder of [project, home, backend]) fs.mkdirSync(folder);
    env = { ...process.env };
    // The harness's settings of its own stacks are none of a user's.
    for (const key of Object.keys(env)) if (key.startsWith("PULUMI_")) delete env[key];
    Object.assign(env, {
      HOME: home,
      PULUMI_HOME: path.join(home, ".pulumi"),
      // npm's cache stays the user's, so packages fetched before are not fetched again.
      npm_config_cache: process.env.npm_config_cache ?? path.join(os.homedir(), ".npm"),
      npm_config_update_notifier: "false",
      PATH: `${path.join(context.cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      PULUMI_CONFIG_PASSPHRASE: "",
      PULUMI_SKIP_UPDATE_CHECK: "true",
    });
    dir = project;
  }, 300_000);

  afterAll(async () => {
    await emulator?.close();
    if (dir) fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  /**
   * Runs one command in the project's folder; its output, or a failure with it. Not
   * `spawnSync`: the emulator answers from this process.
   */
  async function sh(command: string): Promise<string> {
    const child = spawn("bash", ["-c", command], { cwd: dir, env, timeout: 240_000 });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(status, `${command}\n${output}`).toBe(0);
    return output;
  }

  it("its files and commands make a project whose up creates the program's objects", async () => {
    const { files, commands } = readmeSteps(readmeSection("Use it"));
    expect(Object.keys(files).sort()).toEqual([
      "Pulumi.yaml",
      "index.ts",
      "tsconfig.json",
      "tsconfig.pulumi.json",
    ]);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    const filled = commands.map((command) =>
      command
        .replace(/^npm install pulumi-irm /, `npm install --no-audit --no-fund ${tarball} `)
        .replace("<your root organisation uid>", emulator.rootGroupUid)
        .replace("https://<your api host>", emulator.url)
        .replace("<an API token>", emulator.token)
        .replace(/^pulumi login --local\s+#.*$/, `pulumi login file://${backend}`)
        .replace(/^pulumi up$/, "pulumi up --yes"),
    );
    // Every placeholder was filled, and the steps are the ones this test knows.
    expect(filled.join("\n")).not.toMatch(/<[^>]+>/);
    expect(filled.filter((c) => c === "pulumi up --yes")).toHaveLength(1);
    expect(filled.filter((c) => c === `pulumi login file://${backend}`)).toHaveLength(1);
    let up = "";
    for (const command of filled) {
      const output = await sh(command);
      if (command.startsWith("pulumi up")) up = output;
    }
    // Not Pulumi's own TypeScript 3.8: the version the README installs.
    expect((await sh(`node -p 'require("typescript").version'`)).trim()).toMatch(/^6\./);
    expect(up).toMatch(/\+ 4 created/);
  }, 600_000);

  it("the objects are in the organisation as the program declares them", async () => {
    const org = await readOrganisation(emulator.url, emulator.token, emulator.rootGroupUid);
    expect(org.groups).toEqual(["platform <- ROOT"]);
    expect(org.identities).toEqual([
      "platform-ci in platform: repo:acme/platform:ref:refs/heads/main",
    ]);
    expect(org.bindings).toEqual(["platform-ci is editor on platform"]);
  });

  it("with the newest TypeScript 5 instead, the program compiles and previews no change", async () => {
    await sh("npm install --no-audit --no-fund typescript@5");
    expect((await sh(`node -p 'require("typescript").version'`)).trim()).toMatch(/^5\./);
    // The type check is the project's script; `pulumi` itself only transpiles.
    await sh("npm run typecheck");
    await sh("pulumi preview --expect-no-changes");
  }, 300_000);
});
