/**
 * The package installed as users install it, for the real engine: `npm pack` of this
 * repository, then `npm install` of that tarball with `@pulumi/pulumi`, `@pulumi/policy`
 * and TypeScript at the versions this repository pins, into one folder outside the
 * repository. Project folders go below it, so every program, provider host and policy
 * pack resolves the one installed copy (and one `@pulumi/pulumi`) by walking up.
 *
 * The global setup names an empty folder per test run; the first real-engine stack of
 * the run fills it (under a lock, as test files run in parallel workers), so runs that
 * use no real engine pay nothing. The global teardown removes it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, REPO_ROOT } from "../installed-package";

export interface RealEngineContext {
  /** Install root of the CLI (`<root>/bin/pulumi`), or "" when there is none. */
  cliRoot: string;
  /** Folder holding the installed package (once `ensureInstalledBase` ran); project folders go below it. */
  base: string;
}

function pinned(name: string): string {
  const manifest = require.resolve(`${name}/package.json`, { paths: [REPO_ROOT] });
  return JSON.parse(fs.readFileSync(manifest, "utf8")).version as string;
}

/** An empty folder for this run's installed base. */
export function reserveInstalledBase(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "irm-real-engine-"));
}

/** Installs the package into `base` unless a worker already did. */
export async function ensureInstalledBase(base: string): Promise<void> {
  const done = path.join(base, ".installed");
  const lock = path.join(base, ".installing");
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (fs.existsSync(done)) return;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (!fs.existsSync(done)) {
      install(base);
      fs.writeFileSync(done, "");
    }
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Packs this repository and installs the tarball into `base`. Throws with npm's output. */
function install(base: string): void {
  ensureBuilt();
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const run = (args: string[], cwd: string) => {
    try {
      return execFileSync(npm, args, {
        cwd,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, npm_config_update_notifier: "false" },
      });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string };
      throw new Error(
        `npm ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? ""}`,
      );
    }
  };
  const packed = run(["pack", "--ignore-scripts", "--pack-destination", base], REPO_ROOT)
    .trim()
    .split("\n")
    .pop();
  if (!packed) throw new Error("npm pack printed no tarball name");
  fs.writeFileSync(
    path.join(base, "package.json"),
    JSON.stringify({ name: "irm-real-engine-projects", private: true }, null, 2),
  );
  run(
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `./${packed}`,
      `@pulumi/pulumi@${pinned("@pulumi/pulumi")}`,
      `@pulumi/policy@${pinned("@pulumi/policy")}`,
      `typescript@${pinned("typescript")}`,
      `@types/node@${pinned("@types/node")}`,
    ],
    base,
  );
}

/**
 * The tarball `npm pack` made of this checkout for an installed base (it stays in the
 * base, beside the `node_modules` it was installed into).
 */
export function packedTarball(base: string): string {
  const found = fs.readdirSync(base).filter((name) => /^pulumi-irm-.*\.tgz$/.test(name));
  if (found.length !== 1) {
    throw new Error(`expected one packed pulumi-irm tarball in ${base}, found ${found.length}`);
  }
  return path.join(base, found[0]);
}

/** A fresh base, installed now (for tools outside a vitest run, such as the benchmarks). */
export function createInstalledBase(): string {
  const base = reserveInstalledBase();
  install(base);
  fs.writeFileSync(path.join(base, ".installed"), "");
  return base;
}
