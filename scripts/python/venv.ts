/**
 * `npm run python:venv`: a Python virtual environment with the Pulumi SDK at the CLI's
 * version, for the Python scenario and for building the generated Python SDK's wheel.
 * Prints its folder on the last line of stdout.
 *
 * What goes in is `requirements.txt` beside this file, every package pinned with its
 * hashes (compiled from `requirements.in` with `pip-compile --generate-hashes`) and
 * installed with `--require-hashes` from PyPI. The environment lives outside the
 * repository in a cache folder keyed by that file and the interpreter's version
 * (`$IRM_PYTHON_CACHE` or `$XDG_CACHE_HOME/pulumi-irm/python` or
 * `~/.cache/pulumi-irm/python`, then `<key>/`), and is reused when present: it is
 * built in a staging folder and renamed into place whole, so a half-built one is
 * never taken. Use it through `<dir>/bin/python` (scripts' shebangs name the
 * staging folder).
 *
 * Nothing here is needed by users, who install `pulumi` and the generated SDK with pip.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { projectCacheDir } from "../pulumi-cli/locate";
import { runChecked } from "./run";

const REQUIREMENTS = path.join(__dirname, "requirements.txt");

export interface PythonVenv {
  /** The environment's folder. */
  dir: string;
  /** Its interpreter (`<dir>/bin/python`). */
  python: string;
  /** Whether this call built it (false: found in the cache). */
  built: boolean;
}

/** The interpreter to build environments from: `$IRM_PYTHON`, else `python3` on PATH. */
export function basePython(): string {
  return process.env.IRM_PYTHON ?? "python3";
}

function interpreterVersion(python: string): string {
  return runChecked(python, ["-c", "import sys; print(sys.version)"], {}).trim();
}

export function pythonCacheRoot(): string {
  return projectCacheDir("python", process.env.IRM_PYTHON_CACHE);
}

/** The cache key: the pinned requirements and the interpreter that runs them. */
export function venvKey(python = basePython()): string {
  return createHash("sha256")
    .update(fs.readFileSync(REQUIREMENTS))
    .update("\0")
    .update(interpreterVersion(python))
    .digest("hex")
    .slice(0, 16);
}

function complete(dir: string): boolean {
  return fs.existsSync(path.join(dir, ".complete"));
}

/** The cached environment, built first when missing. */
export function ensurePythonVenv(log: (message: string) => void = () => {}): PythonVenv {
  const python = basePython();
  const dir = path.join(pythonCacheRoot(), venvKey(python));
  const venvPython = path.join(dir, "bin", "python");
  if (complete(dir)) return { dir, python: venvPython, built: false };

  log(`building a Python environment in ${dir} from ${REQUIREMENTS}`);
  const staging = `${dir}.${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    runChecked(python, ["-m", "venv", staging], {});
    runChecked(
      path.join(staging, "bin", "python"),
      [
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-input",
        "--require-hashes",
        "--no-deps",
        "--only-binary",
        ":all:",
        "--requirement",
        REQUIREMENTS,
      ],
      // PyPI (or the index pip is configured with); no extra wheel folders or indexes.
      { PIP_FIND_LINKS: undefined, PIP_EXTRA_INDEX_URL: undefined },
    );
    fs.writeFileSync(path.join(staging, ".complete"), `${new Date().toISOString()}\n`);
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      // Another process finished the same environment first: use theirs.
      if (!complete(dir)) throw error;
      fs.rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  return { dir, python: venvPython, built: true };
}
