/**
 * The package laid out in a program's `node_modules` the ways users install it, for the
 * real engine: one base folder holds every dependency (`@pulumi/pulumi`, `undici`, ...,
 * linked from the run's installed base) but not the package itself, which sits in
 * `<base>/packages/<label>/pulumi-irm` as `npm pack` ships it (this checkout, or an older
 * commit for upgrade tests). A project folder below the base gets the package by one of
 * the layouts below; whatever else it requires resolves by walking up to the base.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { projectCacheDir } from "../../scripts/pulumi-cli/locate";
import { REPO_ROOT } from "../installed-package";
import {
  ensureInstalledBase,
  linkTree,
  npm,
  packedTarball,
  pinned,
  type RealEngineContext,
} from "./installed-base";

/**
 * How the package reaches the program:
 * - `npm`: a plain folder `node_modules/pulumi-irm` (npm, yarn);
 * - `pnpm`: `node_modules/pulumi-irm` a symlink to
 *   `node_modules/.pnpm/pulumi-irm@<version>/node_modules/pulumi-irm`, as pnpm lays out a
 *   direct dependency;
 * - `linked`: `node_modules/pulumi-irm` a symlink to a checkout outside any
 *   `node_modules` (`npm link`), here the package's folder in the base;
 * - `nested-hoisted`: a library `infra-lib` the program depends on requires the package,
 *   which npm hoisted next to it (`node_modules/pulumi-irm`);
 * - `nested-only`: the same library with its own copy,
 *   `node_modules/infra-lib/node_modules/pulumi-irm`, and none the program's folder finds
 *   (pnpm with the package as a dependency of a dependency only).
 */
/**
 * The last commit whose package stored the 2 KB closure-serialized provider text: the
 * "older package" of the upgrade tests and the benchmarks.
 */
export const OLD_TEXT_RELEASE = "f652ee7161018ead0920049fb4280f68052b4c0d";

export type InstallLayout = "npm" | "pnpm" | "linked" | "nested-hoisted" | "nested-only";

export const INSTALL_LAYOUTS: readonly InstallLayout[] = [
  "npm",
  "pnpm",
  "linked",
  "nested-hoisted",
  "nested-only",
];

export interface LayoutBase {
  /** Context for `createRealEngineStack`: projects go below `base`. */
  context: RealEngineContext;
  /** The package's folder by label (`current`, and each older commit asked for). */
  packages: Record<string, string>;
  remove(): void;
}

/** `npm pack` of the package at `root` into `dest`; the tarball's path. */
function pack(root: string, dest: string): string {
  fs.mkdirSync(dest, { recursive: true });
  const name = npm(["pack", "--ignore-scripts", "--pack-destination", dest], root)
    .trim()
    .split("\n")
    .pop();
  if (!name) throw new Error(`npm pack printed no tarball name in ${root}`);
  return path.join(dest, name);
}

/**
 * Where packed older commits are kept between runs (a commit's tarball, built with one
 * TypeScript version, never changes): beside the CLI cache, outside the repository.
 */
function packedCommitCache(): string {
  return projectCacheDir("packed-commits");
}

/** `packCommit`, kept in a cache for the next run (the tests' upgrade scenarios). */
export function packCommitCached(commit: string, dest: string): string {
  const cached = path.join(packedCommitCache(), `${commit}-typescript-${pinned("typescript")}.tgz`);
  fs.mkdirSync(dest, { recursive: true });
  const target = path.join(dest, path.basename(cached));
  if (fs.existsSync(cached)) {
    fs.copyFileSync(cached, target);
    return target;
  }
  const packed = packCommit(commit, dest);
  // Written under another name, then renamed: a reader never sees half a tarball.
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  fs.copyFileSync(packed, partial);
  fs.renameSync(partial, cached);
  return packed;
}

/**
 * The package as `commit` shipped it: that commit's files (`git archive`), built with
 * this checkout's `node_modules`, packed. Throws when the commit is not in the history
 * (a shallow clone).
 */
export function packCommit(commit: string, dest: string): string {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), "irm-old-source-"));
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", commit], {
      cwd: REPO_ROOT,
      maxBuffer: 512 * 1024 * 1024,
    });
    execFileSync("tar", ["-x", "-C", source], { input: archive });
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(source, "node_modules"));
    const tsc = createRequire(path.join(REPO_ROOT, "package.json")).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
      cwd: source,
      stdio: "pipe",
    });
    return pack(source, dest);
  } finally {
    fs.rmSync(source, { recursive: true, force: true });
  }
}

/**
 * A base with this checkout's package (label `current`) and, for each `older` label, the
 * package of that commit, each in `packages/<label>/pulumi-irm`; the base's own
 * `node_modules` holds every dependency but no `pulumi-irm`.
 *
 * Nothing is packed or installed twice in a run: the dependencies are the run's installed
 * base's (`installed-base.ts`, filled now if no test did yet), hard-linked without the
 * package and npm's lockfile, and `current` is the tarball packed for that base. An
 * older commit's package comes from the cache of `packCommitCached`.
 */
export async function createLayoutBase(
  context: RealEngineContext,
  older: Record<string, string> = {},
): Promise<LayoutBase> {
  await ensureInstalledBase(context.base);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "irm-layouts-"));
  try {
    // The base must not serve the package itself: each project gets it by its layout.
    linkTree(
      path.join(context.base, "node_modules"),
      path.join(base, "node_modules"),
      new Set(["pulumi-irm", ".package-lock.json"]),
    );
    fs.writeFileSync(
      path.join(base, "package.json"),
      JSON.stringify({ name: "irm-layout-projects", private: true }, null, 2),
    );
    const packages: Record<string, string> = {};
    const store = (label: string, tarball: string) => {
      const dir = path.join(base, "packages", label);
      fs.mkdirSync(dir, { recursive: true });
      execFileSync("tar", ["-xzf", tarball, "-C", dir]);
      fs.renameSync(path.join(dir, "package"), path.join(dir, "pulumi-irm"));
      packages[label] = path.join(dir, "pulumi-irm");
    };
    store("current", packedTarball(context.base));
    for (const [label, commit] of Object.entries(older)) {
      store(label, packCommitCached(commit, path.join(base, "tarballs", label)));
    }
    // `createRealEngineStack` installs nothing into a base marked installed.
    fs.writeFileSync(path.join(base, ".installed"), "");
    return {
      context: { cliRoot: context.cliRoot, base },
      packages,
      remove: () => fs.rmSync(base, { recursive: true, force: true }),
    };
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }
}

/** The library of the `nested-*` layouts: it requires the package and hands it over. */
const LIBRARY_MANIFEST = {
  name: "infra-lib",
  version: "1.0.0",
  main: "index.js",
  dependencies: { "pulumi-irm": "*" },
};
const LIBRARY_CODE = 'exports.irm = require("pulumi-irm");\n';

/**
 * Puts the package at `packageDir` into `<projectDir>/node_modules` by `layout`,
 * replacing what an earlier call put there.
 */
export function installPackage(projectDir: string, packageDir: string, layout: InstallLayout) {
  const modules = path.join(projectDir, "node_modules");
  fs.rmSync(modules, { recursive: true, force: true });
  fs.mkdirSync(modules, { recursive: true });
  const version = (
    JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const copyTo = (target: string) => {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.cpSync(packageDir, target, { recursive: true });
  };
  const library = () => {
    const dir = path.join(modules, "infra-lib");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(LIBRARY_MANIFEST, null, 2));
    fs.writeFileSync(path.join(dir, "index.js"), LIBRARY_CODE);
    return dir;
  };
  switch (layout) {
    case "npm":
      copyTo(path.join(modules, "pulumi-irm"));
      break;
    case "pnpm": {
      const real = path.join(
        modules,
        ".pnpm",
        `pulumi-irm@${version}`,
        "node_modules",
        "pulumi-irm",
      );
      copyTo(real);
      fs.symlinkSync(path.relative(modules, real), path.join(modules, "pulumi-irm"), "dir");
      break;
    }
    case "linked":
      fs.symlinkSync(packageDir, path.join(modules, "pulumi-irm"), "dir");
      break;
    case "nested-hoisted":
      library();
      copyTo(path.join(modules, "pulumi-irm"));
      break;
    case "nested-only":
      copyTo(path.join(library(), "node_modules", "pulumi-irm"));
      break;
  }
}
