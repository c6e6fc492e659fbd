/**
 * The package installed as users install it, for the real engine: `npm pack` of this
 * repository, then `npm install` of that tarball with `@pulumi/pulumi`, `@pulumi/policy`
 * and TypeScript at the versions this repository pins, into one folder outside the
 * repository. The installed dependencies are kept by the lockfile's hash, so a later
 * run with the same lockfile only packs and unpacks the package. Project folders go below it, so every program, provider host and policy
 * pack resolves the one installed copy (and one `@pulumi/pulumi`) by walking up.
 *
 * The global setup names an empty folder per test run; the first real-engine stack of
 * the run fills it (under a lock, as test files run in parallel workers), so runs that
 * use no real engine pay nothing. The global teardown removes it.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { projectCacheDir } from "../../scripts/pulumi-cli/locate";
import { ensureBuilt, REPO_ROOT } from "../installed-package";

export interface RealEngineContext {
  /** Install root of the CLI (`<root>/bin/pulumi`), or "" when there is none. */
  cliRoot: string;
  /** Folder holding the installed package (once `ensureInstalledBase` ran); project folders go below it. */
  base: string;
}

/** The version of `name` this checkout has installed (what its lockfile pins). */
export function pinned(name: string): string {
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

/** `npm <args>` in `cwd`; throws with npm's output. */
export function npm(args: string[], cwd: string): string {
  const command = process.platform === "win32" ? "npm.cmd" : "npm";
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_update_notifier: "false" },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${cwd}:\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** What `npm install` is asked for besides the tarball: the versions this checkout pins. */
function pinnedDependencies(): string[] {
  return ["@pulumi/pulumi", "@pulumi/policy", "typescript", "@types/node"].map(
    (name) => `${name}@${pinned(name)}`,
  );
}

/**
 * What the installed dependencies follow from: this checkout's lockfile, the package's
 * own dependencies and the pins asked for. Equal keys, equal `node_modules` (the
 * package itself aside).
 */
export function dependencyKey(root: string = REPO_ROOT): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  return createHash("sha256")
    .update(fs.readFileSync(path.join(root, "package-lock.json")))
    .update(JSON.stringify([manifest.dependencies, manifest.peerDependencies]))
    .update(JSON.stringify(pinnedDependencies()))
    .update(process.version.split(".")[0])
    .digest("hex")
    .slice(0, 16);
}

/**
 * Where installed dependencies are kept between runs, by `dependencyKey`: beside the
 * CLI cache, outside the repository (`IRM_INSTALL_CACHE` to move it).
 */
export function dependencyCache(key: string = dependencyKey()): string {
  return path.join(projectCacheDir("installed-deps", process.env.IRM_INSTALL_CACHE), key);
}

/**
 * Packs this repository into `base` and installs it there. The dependencies come from
 * the cache of `dependencyCache` when it has this lockfile's (hard-linked, the package
 * left out), and only the fresh tarball is unpacked as `node_modules/pulumi-irm`; else
 * `npm install` runs and its `node_modules`, the package left out, is kept for the next
 * run. Throws with npm's output.
 */
function install(base: string): void {
  ensureBuilt();
  const packed = npm(["pack", "--ignore-scripts", "--pack-destination", base], REPO_ROOT)
    .trim()
    .split("\n")
    .pop();
  if (!packed) throw new Error("npm pack printed no tarball name");
  const cache = dependencyCache();
  const cachedModules = path.join(cache, "node_modules");
  const modules = path.join(base, "node_modules");
  if (fs.existsSync(cachedModules)) {
    linkTree(cachedModules, modules);
    fs.copyFileSync(path.join(cache, "package.json"), path.join(base, "package.json"));
    const unpacked = fs.mkdtempSync(path.join(base, ".unpack-"));
    execFileSync("tar", ["-xzf", path.join(base, packed), "-C", unpacked]);
    const installed = path.join(modules, "pulumi-irm");
    fs.renameSync(path.join(unpacked, "package"), installed);
    fs.rmSync(unpacked, { recursive: true, force: true });
    // As `npm install` does: the package's commands are executable (the tarball's modes
    // are npm pack's 644).
    const { bin = {} } = JSON.parse(
      fs.readFileSync(path.join(installed, "package.json"), "utf8"),
    ) as { bin?: Record<string, string> };
    for (const file of Object.values(bin)) fs.chmodSync(path.join(installed, file), 0o755);
    return;
  }
  fs.writeFileSync(
    path.join(base, "package.json"),
    JSON.stringify({ name: "irm-real-engine-projects", private: true }, null, 2),
  );
  npm(
    [
      "install",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `./${packed}`,
      ...pinnedDependencies(),
    ],
    base,
  );
  // Kept under another name, then renamed: a reader never sees half a cache.
  const partial = `${cache}.${process.pid}.partial`;
  fs.rmSync(partial, { recursive: true, force: true });
  linkTree(
    modules,
    path.join(partial, "node_modules"),
    new Set(["pulumi-irm", ".package-lock.json"]),
  );
  fs.copyFileSync(path.join(base, "package.json"), path.join(partial, "package.json"));
  try {
    fs.mkdirSync(path.dirname(cache), { recursive: true });
    fs.renameSync(partial, cache);
  } catch {
    // Another run kept the same dependencies first.
    fs.rmSync(partial, { recursive: true, force: true });
  }
}

/**
 * `from` copied to `to` as hard links, file by file (symbolic links copied as links), but
 * for the top-level entries named in `skip`: a second `node_modules` at the cost of its
 * directory entries. Falls back to copying a file where the file system refuses a link.
 */
export function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      linkTree(source, target);
    } else if (entry.isSymbolicLink()) {
      fs.symlinkSync(fs.readlinkSync(source), target);
    } else {
      try {
        fs.linkSync(source, target);
      } catch {
        fs.copyFileSync(source, target);
      }
    }
  }
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
