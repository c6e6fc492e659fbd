/**
 * Test equipment: a consumer project with an *installed copy* of this package.
 *
 * Users get `pulumi-irm` from the registry: only the files `npm pack` ships, reached
 * through the `exports` map. Tests that import the repository's sources directly
 * cannot notice a missing file or a broken `exports` entry; a consumer project built
 * here can. It lives under `<repo>/.tmp/<name>/` so that its other requires
 * (`@pulumi/pulumi`, `undici`, `jose`, `p-retry`) resolve from the repository's own
 * `node_modules` by walking up: one single `@pulumi/pulumi` instance for the program,
 * the package and the provider host.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

/** Root of this repository (the folder holding its package.json). */
export const REPO_ROOT = path.resolve(__dirname, "..");

/** Where consumer projects and other scratch folders of the tests live (git-ignored). */
export const SCRATCH_ROOT = path.join(REPO_ROOT, ".tmp");

/**
 * A scratch folder of this process under `.tmp/`. The process id keeps two test runs
 * in the same checkout (several engineers, one working tree) out of each other's way.
 */
export function scratchDir(name: string): string {
  return path.join(SCRATCH_ROOT, `${name}-${process.pid}`);
}

/** The parts of a package.json this equipment reads or writes. */
export interface PackageManifest {
  name: string;
  version: string;
  exports?: Record<string, string | { types?: string; default?: string }>;
  [field: string]: unknown;
}

export interface ConsumerProjectOptions {
  /** Names the folder `.tmp/<name>-<pid>/`; an existing folder of that name is replaced. */
  name: string;
  /** Package to install; defaults to this repository (built first if `dist/` is stale). */
  packageRoot?: string;
  /** Copy this folder's files (not its `node_modules`) into the project, e.g. an example. */
  programDir?: string;
  /** Extra files to write into the project, by relative path. */
  files?: Record<string, string>;
  /** Edits the installed copy's package.json (tests use it to break the `exports` map). */
  editManifest?: (manifest: PackageManifest) => void;
  /** Subpaths that must resolve; defaults to every subpath of the `exports` map. */
  requiredSubpaths?: string[];
}

export interface ConsumerProject {
  /** Absolute path of the project folder (the working directory of a Pulumi program). */
  dir: string;
  /** Absolute path of the installed copy (`<dir>/node_modules/<package name>`). */
  packageDir: string;
  /** Name of the installed package. */
  packageName: string;
  /** Files that were installed, relative to `packageDir`. */
  installedFiles: string[];
  /** `require` as seen from inside the project. */
  require: NodeJS.Require;
  /** Deletes the project folder. */
  remove(): void;
}

/**
 * Builds this repository into `dist/` when a source file is newer than every built file.
 * Under `npm test` the build already ran, so this only compares timestamps.
 */
export function ensureBuilt(root: string = REPO_ROOT): void {
  const sourceDirs = ["sdk", "provider", "emulator", "policy", "exporter"].map((d) =>
    path.join(root, d),
  );
  const newestSource = newestMtime(sourceDirs, (f) => f.endsWith(".ts") && !f.endsWith(".d.ts"));
  const newestBuilt = newestMtime([path.join(root, "dist")], (f) => f.endsWith(".js"));
  if (newestBuilt !== 0 && newestBuilt >= newestSource) return;
  withLock(path.join(SCRATCH_ROOT, "build.lock"), () => {
    // Another worker may have built while we waited for the lock.
    const builtNow = newestMtime([path.join(root, "dist")], (f) => f.endsWith(".js"));
    if (builtNow !== 0 && builtNow >= newestSource) return;
    const tsc = createRequire(path.join(root, "package.json")).resolve("typescript/bin/tsc");
    try {
      execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
        cwd: root,
        stdio: "pipe",
      });
    } catch (error) {
      const output = String((error as { stdout?: Buffer }).stdout ?? "");
      throw new Error(`building the package failed:\n${output}`);
    }
  });
}

/** Lists what `npm pack` would put in the tarball (the `files` field, package.json, README). */
export function packedFiles(packageRoot: string): string[] {
  // `npm pack --dry-run` costs over a second of CPU; a worker asks for the same list
  // once per consumer project, so it is kept while the files it covers stay the same.
  const key = packedFilesKey(packageRoot);
  const cached = packedFilesCache.get(packageRoot);
  if (cached?.key === key) return [...cached.files];
  const files = listPackedFiles(packageRoot);
  packedFilesCache.set(packageRoot, { key, files });
  return [...files];
}

const packedFilesCache = new Map<string, { key: string; files: string[] }>();

/** The manifest, and every path below the package's folder but its dependencies. */
function packedFilesKey(packageRoot: string): string {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (["node_modules", ".git", ".tmp"].includes(entry.name)) continue;
      const full = path.join(dir, entry.name);
      paths.push(path.relative(packageRoot, full));
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(packageRoot);
  return `${fs.readFileSync(path.join(packageRoot, "package.json"), "utf8")}\n${paths.sort().join("\n")}`;
}

function listPackedFiles(packageRoot: string): string[] {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: packageRoot,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [report] = JSON.parse(out) as Array<{ files: Array<{ path: string }> }>;
  return report.files.map((f) => f.path).sort();
}

/**
 * Creates `.tmp/<name>-<pid>/` with `node_modules/<package>` holding what `npm pack` ships,
 * then checks that every required `exports` subpath resolves from inside the project.
 * Throws, naming each subpath, when one does not: a broken map fails here, as it would
 * for a user.
 */
export function createConsumerProject(options: ConsumerProjectOptions): ConsumerProject {
  const packageRoot = options.packageRoot ?? REPO_ROOT;
  if (packageRoot === REPO_ROOT) ensureBuilt();

  const dir = scratchDir(options.name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });

  const manifest = readManifest(packageRoot);
  const packageDir = path.join(dir, "node_modules", ...manifest.name.split("/"));
  const installedFiles = packedFiles(packageRoot);
  for (const file of installedFiles) {
    const target = path.join(packageDir, file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(path.join(packageRoot, file), target);
  }
  if (options.editManifest) {
    const installed = readManifest(packageDir);
    options.editManifest(installed);
    fs.writeFileSync(path.join(packageDir, "package.json"), JSON.stringify(installed, null, 2));
  }

  if (options.programDir) copyProgram(options.programDir, dir);
  if (!fs.existsSync(path.join(dir, "package.json"))) {
    const consumerManifest = {
      name: `consumer-${options.name}`,
      private: true,
      dependencies: { [manifest.name]: manifest.version },
    };
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(consumerManifest, null, 2));
  }
  for (const [relative, content] of Object.entries(options.files ?? {})) {
    const target = path.join(dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }

  const project: ConsumerProject = {
    dir,
    packageDir,
    packageName: manifest.name,
    installedFiles,
    require: createRequire(path.join(dir, "package.json")),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  verifyExports(project, options.requiredSubpaths);
  return project;
}

/**
 * Resolves `<package>/<subpath>` from inside the project for each subpath, through the
 * installed copy's `exports` map. Throws one error listing every subpath that fails.
 */
export function verifyExports(project: ConsumerProject, subpaths?: string[]): void {
  const manifest = readManifest(project.packageDir);
  const wanted = subpaths ?? Object.keys(manifest.exports ?? { ".": "" });
  const failures: string[] = [];
  for (const subpath of wanted) {
    const specifier =
      subpath === "."
        ? project.packageName
        : `${project.packageName}/${subpath.replace(/^\.\//, "")}`;
    try {
      const resolved = project.require.resolve(specifier);
      if (!resolved.startsWith(project.packageDir + path.sep)) {
        failures.push(`${specifier}: resolved outside the installed copy (${resolved})`);
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "ERROR";
      failures.push(`${specifier}: ${code}`);
    }
  }
  if (failures.length > 0) {
    throw new Error(
      `installed package ${project.packageName} does not resolve as users would install it:\n  ` +
        failures.join("\n  "),
    );
  }
}

function readManifest(packageDir: string): PackageManifest {
  return JSON.parse(
    fs.readFileSync(path.join(packageDir, "package.json"), "utf8"),
  ) as PackageManifest;
}

/** Copies a Pulumi program folder, leaving out what `npm install` would have made there. */
function copyProgram(programDir: string, targetDir: string): void {
  const skipped = new Set(["node_modules", "package-lock.json", "bin", ".pulumi"]);
  fs.cpSync(programDir, targetDir, {
    recursive: true,
    filter: (source) => !skipped.has(path.basename(source)) || source === programDir,
  });
}

function newestMtime(dirs: string[], accept: (file: string) => boolean): number {
  let newest = 0;
  const visit = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (accept(entry.name)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  for (const dir of dirs) visit(dir);
  return newest;
}

/** Runs `action` while holding a lock directory, so parallel test workers build once. */
function withLock(lockDir: string, action: () => void): void {
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // A lock left by a killed worker is taken over once we have waited long enough.
      if (Date.now() > deadline) fs.rmSync(lockDir, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    action();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
