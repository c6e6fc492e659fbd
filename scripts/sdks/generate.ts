/**
 * The SDKs of the native provider plugin for Python, Go, .NET and Node.js, generated
 * from its schema (`dist/plugin/schema.json`, written by `npm run build`) with Pulumi's
 * own code generators, offline once the Go modules are in the module cache.
 *
 * - The generators are the Go programs in `sdkgen/` (Python, Go and Node.js, at the
 *   CLI's `pkg/v3`) and `sdkgen/dotnet/` (.NET, whose generator left `pkg/v3` after
 *   v3.225.1). They are built once into a cache folder outside the repository keyed by
 *   their sources and `go.sum` (`$IRM_SDKGEN_CACHE` or `$XDG_CACHE_HOME/pulumi-irm/sdkgen`
 *   or `~/.cache/pulumi-irm/sdkgen`, then `<key>/`).
 * - The output (`dist/sdks/<lang>`, never committed) carries the key of what made it
 *   (`dist/sdks/.key`: schema, generators, packaging): an unchanged key is not generated
 *   again.
 * - Packaging: Node.js compiled into `nodejs/bin` (an npm-packable folder with its
 *   package.json); Python built into a wheel in `python/dist` with the pinned
 *   environment of `npm run python:venv`; Go given a `go.mod` requiring the Pulumi SDK
 *   at the CLI's version; .NET generated only (no .NET SDK is needed to generate).
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { pinnedPulumiVersion, projectCacheDir } from "../pulumi-cli/locate";
import { runChecked } from "../python/run";
import { ensurePythonVenv } from "../python/venv";

const REPO = path.resolve(__dirname, "..", "..");
const SDKGEN = path.join(REPO, "sdkgen");

export const LANGUAGES = ["python", "go", "nodejs", "dotnet"] as const;
export type Language = (typeof LANGUAGES)[number];

export interface GenerateOptions {
  /** The package schema; `dist/plugin/schema.json` by default. */
  schema?: string;
  /** The output folder; `dist/sdks` by default. */
  out?: string;
  /** Progress lines. */
  log?: (message: string) => void;
}

export interface GenerateResult {
  out: string;
  /** False when the output's key matched and nothing was done. */
  generated: boolean;
  /** Seconds spent per step, for the docs' measurements. */
  seconds: Record<string, number>;
}

/** Go's environment for the generators: module cache first, no toolchain download. */
function goEnv(): NodeJS.ProcessEnv {
  return {
    // go.mod and go.sum as committed: a build that would change them fails instead.
    GOFLAGS: "-mod=readonly",
    GOTOOLCHAIN: "local",
    GOWORK: "off",
    // go.sum pins every module; the checksum database is out of reach on some machines.
    GOSUMDB: process.env.GOSUMDB ?? "off",
  };
}

function hashFiles(hash: ReturnType<typeof createHash>, files: string[]): void {
  for (const file of files) {
    hash.update(path.relative(REPO, file)).update("\0").update(fs.readFileSync(file)).update("\0");
  }
}

function generatorSources(): string[] {
  return ["main.go", "go.mod", "go.sum", "dotnet/main.go", "dotnet/go.mod", "dotnet/go.sum"].map(
    (name) => path.join(SDKGEN, name),
  );
}

/** Key of the generator binaries: their sources and the Go toolchain. */
function generatorKey(): string {
  const hash = createHash("sha256");
  hashFiles(hash, generatorSources());
  hash.update(runChecked("go", ["env", "GOVERSION"], goEnv()).trim());
  return hash.digest("hex").slice(0, 16);
}

function sdkgenCacheRoot(): string {
  return projectCacheDir("sdkgen", process.env.IRM_SDKGEN_CACHE);
}

interface Generators {
  sdkgen: string;
  dotnet: string;
}

/** The generator binaries, built into the cache when missing. */
export function ensureGenerators(log: (message: string) => void = () => {}): Generators {
  const dir = path.join(sdkgenCacheRoot(), generatorKey());
  const bins = { sdkgen: path.join(dir, "sdkgen"), dotnet: path.join(dir, "sdkgen-dotnet") };
  if (fs.existsSync(bins.sdkgen) && fs.existsSync(bins.dotnet)) return bins;
  fs.mkdirSync(dir, { recursive: true });
  for (const [moduleDir, out] of [
    [SDKGEN, bins.sdkgen],
    [path.join(SDKGEN, "dotnet"), bins.dotnet],
  ] as const) {
    log(`building ${path.relative(REPO, moduleDir)} into ${dir}`);
    const staging = `${out}.${process.pid}`;
    runChecked("go", ["build", "-trimpath", "-o", staging, "."], goEnv(), moduleDir);
    fs.renameSync(staging, out);
  }
  return bins;
}

/**
 * Packaging settings of each language's generator, used where the schema's `language`
 * section says nothing: versions from the schema's version, a `pyproject.toml` for
 * Python, names that are this project's (Pulumi's generators would default to the
 * `@pulumi/` npm scope and a `github.com/pulumi/` Go path). The schema keeps only what
 * describes the API; the SDKs' packaging lives here.
 */
export const LANGUAGE_DEFAULTS: Record<string, Record<string, unknown>> = {
  python: { packageName: "pulumi_irm", respectSchemaVersion: true, pyproject: { enabled: true } },
  nodejs: { packageName: "pulumi-irm-native", respectSchemaVersion: true },
  go: { importBasePath: "github.com/pulumi-irm/sdk/go/irm", respectSchemaVersion: true },
  csharp: { rootNamespace: "PulumiIrm", respectSchemaVersion: true },
};

/** The schema with each language's defaults under what it sets itself. */
export function withLanguageDefaults(schema: Record<string, unknown>): Record<string, unknown> {
  const given = (schema.language ?? {}) as Record<string, Record<string, unknown>>;
  const language = Object.fromEntries(
    [...new Set([...Object.keys(LANGUAGE_DEFAULTS), ...Object.keys(given)])].map((lang) => [
      lang,
      { ...LANGUAGE_DEFAULTS[lang], ...given[lang] },
    ]),
  );
  return { ...schema, language };
}

/** The package's import path and module for the Go SDK, read back from what was generated. */
function goModule(goDir: string): { dir: string; module: string } {
  const [name] = fs
    .readdirSync(goDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  if (name === undefined) throw new Error(`no package folder in ${goDir}`);
  // The generated files import their internal package by the package's import path.
  const provider = fs.readFileSync(path.join(goDir, name, "provider.go"), "utf8");
  const imported = /"([^"]+)\/internal"/.exec(provider);
  if (!imported) throw new Error(`cannot tell the Go SDK's import path from ${goDir}/${name}`);
  return { dir: path.join(goDir, name), module: imported[1] };
}

function writeGoMod(goDir: string): void {
  const { dir, module } = goModule(goDir);
  fs.writeFileSync(
    path.join(dir, "go.mod"),
    `module ${module}\n\ngo 1.22\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pinnedPulumiVersion()}\n`,
  );
}

/** Compiles the Node.js SDK into `bin/` with its package.json: `npm pack` works there. */
function buildNodejs(nodeDir: string): void {
  const tsc = path.join(REPO, "node_modules", "typescript", "bin", "tsc");
  // Compiled against this checkout's @pulumi/pulumi and @types/node, wherever it is.
  const link = path.join(nodeDir, "node_modules");
  fs.symlinkSync(path.join(REPO, "node_modules"), link, "dir");
  try {
    runChecked(process.execPath, [tsc, "-p", path.join(nodeDir, "tsconfig.json")], {}, nodeDir);
  } finally {
    fs.rmSync(link, { force: true });
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(nodeDir, "package.json"), "utf8"));
  delete manifest.scripts;
  delete manifest.devDependencies;
  fs.writeFileSync(
    path.join(nodeDir, "bin", "package.json"),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  if (fs.existsSync(path.join(nodeDir, "README.md")))
    fs.copyFileSync(path.join(nodeDir, "README.md"), path.join(nodeDir, "bin", "README.md"));
}

/** Builds the Python SDK's wheel into `dist/` with the pinned environment's setuptools. */
function buildPythonWheel(pythonDir: string, log: (message: string) => void): void {
  const venv = ensurePythonVenv(log);
  runChecked(
    venv.python,
    [
      "-m",
      "pip",
      "wheel",
      "--quiet",
      "--no-deps",
      "--no-build-isolation",
      "--no-input",
      "--wheel-dir",
      path.join(pythonDir, "dist"),
      pythonDir,
    ],
    {},
  );
  fs.rmSync(path.join(pythonDir, "build"), { recursive: true, force: true });
  for (const entry of fs.readdirSync(pythonDir)) {
    if (entry.endsWith(".egg-info"))
      fs.rmSync(path.join(pythonDir, entry), { recursive: true, force: true });
  }
}

/** The Python wheel `generate` built. */
export function pythonWheel(out: string): string {
  const dist = path.join(out, "python", "dist");
  const [wheel] = fs.readdirSync(dist).filter((name) => name.endsWith(".whl"));
  if (wheel === undefined) throw new Error(`no wheel in ${dist}`);
  return path.join(dist, wheel);
}

export function generateSdks(options: GenerateOptions = {}): GenerateResult {
  const log = options.log ?? (() => {});
  const schema = path.resolve(options.schema ?? path.join(REPO, "dist", "plugin", "schema.json"));
  const out = path.resolve(options.out ?? path.join(REPO, "dist", "sdks"));
  if (!fs.existsSync(schema)) {
    throw new Error(
      `no schema at ${schema}: run npm run build first (it writes the plugin's schema)`,
    );
  }
  const seconds: Record<string, number> = {};
  const timed = <T>(step: string, work: () => T): T => {
    const started = performance.now();
    try {
      return work();
    } finally {
      seconds[step] = (performance.now() - started) / 1000;
    }
  };

  const keyHash = createHash("sha256");
  hashFiles(keyHash, [schema, ...generatorSources(), __filename]);
  keyHash.update(fs.readFileSync(path.join(__dirname, "..", "python", "requirements.txt")));
  const key = keyHash.digest("hex");
  const keyFile = path.join(out, ".key");
  const current = () => fs.existsSync(keyFile) && fs.readFileSync(keyFile, "utf8").trim() === key;
  if (current()) return { out, generated: false, seconds };
  // Test files running side by side may both want the SDKs: one generates, the other
  // waits for it and then finds them current.
  return withLock(`${out}.lock`, () => {
    if (current()) return { out, generated: false, seconds };
    generateInto(out, schema, key, keyFile, timed, log);
    return { out, generated: true, seconds };
  });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Runs `work` holding `lock` (a file made exclusively); a holder gone for good is waited out. */
function withLock<T>(lock: string, work: () => T): T {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(fs.readFileSync(lock, "utf8"));
      let alive = true;
      try {
        process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (!alive) fs.rmSync(lock, { force: true });
      else if (Date.now() > deadline) throw new Error(`${lock} held by process ${holder} too long`);
      else Atomics.wait(sleeper, 0, 0, 200);
    }
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function generateInto(
  out: string,
  schema: string,
  key: string,
  keyFile: string,
  timed: <T>(step: string, work: () => T) => T,
  log: (message: string) => void,
): void {
  const bins = timed("generators", () => ensureGenerators(log));
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const given = fs.readFileSync(schema, "utf8");
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(given);
  } catch (error) {
    throw new Error(`${schema}: not JSON (${(error as Error).message})`);
  }
  // The generators read the schema as given plus the packaging defaults; errors name
  // the schema's own file.
  const effective = path.join(out, `.${path.basename(schema)}`);
  fs.writeFileSync(effective, JSON.stringify(withLanguageDefaults(parsed), null, 2));
  const generator = (args: string[], bin: string) => {
    try {
      runChecked(bin, args, {});
    } catch (error) {
      throw new Error((error as Error).message.split(effective).join(schema));
    }
  };
  timed("generate", () => {
    for (const lang of ["python", "go", "nodejs"] as const) {
      generator(["-schema", effective, "-lang", lang, "-out", path.join(out, lang)], bins.sdkgen);
    }
    generator(["-schema", effective, "-out", path.join(out, "dotnet")], bins.dotnet);
  });
  timed("go.mod", () => writeGoMod(path.join(out, "go")));
  timed("nodejs", () => buildNodejs(path.join(out, "nodejs")));
  timed("python wheel", () => buildPythonWheel(path.join(out, "python"), log));
  fs.writeFileSync(keyFile, `${key}\n`);
}
