/**
 * A Pulumi Python program on the real CLI, for the tests and the benchmarks: the
 * program folder copied to a scratch project, the generated Python SDK's wheel installed
 * with pip into a scratch folder, and `stack_driver.py` (beside this file) running it
 * through the Automation API's inline programs in the pinned environment of
 * `npm run python:venv` (the CLI built from Go modules has no Python language host;
 * docs/languages.md says why). One driver process serves every step of a stack.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as readline from "node:readline";
import { runChecked } from "../../scripts/python/run";
import { ensurePythonVenv } from "../../scripts/python/venv";
import { editProgram } from "../program-edit";
import { logEngineStep } from "../real-engine/step-log";

const DRIVER = path.join(__dirname, "stack_driver.py");

export interface PythonStackOptions {
  /** Project name (and scratch folder prefix). */
  name: string;
  /** Folder holding the program's `__main__.py`. */
  programDir: string;
  /** Install root of the CLI (`<root>/bin/pulumi`). */
  cliRoot: string;
  /** Scratch folder the project, backend and home go below. */
  scratch: string;
  /** The Python SDK's wheel. */
  wheel: string;
  /** Folders put first on the CLI's PATH (the provider plugin's). */
  path?: string[];
  /** Stack configuration (`irm:apiUrl`, a secret `irm:token`, the project's keys). */
  config: Record<string, { value: string; secret?: boolean }>;
  /** More environment for the CLI and the plugins it starts. */
  env?: Record<string, string>;
}

/** One step's answer (see stack_driver.py). */
export interface PythonStepAnswer {
  ok: boolean;
  error?: string;
  /** Engine step counts, by op (`create`, `update`, `same`, ...). */
  changes?: Record<string, number>;
  /** The steps that were not `same`: `[op, resource name]`. */
  steps: Array<[string, string]>;
  /** What the CLI printed. */
  output: string;
  deployment?: { resources?: Array<Record<string, unknown>> } & Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface PythonStack {
  dir: string;
  /** The driver's process id (the benchmarks read its CPU). */
  pid: number;
  /** The file backend's folder. */
  backend: string;
  step(op: string, extra?: Record<string, unknown>): Promise<PythonStepAnswer>;
  editProgram(from: string, to: string): void;
  /** Everything the driver and the CLI wrote to stderr so far. */
  stderr(): string;
  /** What the CLI printed at each step so far. */
  outputs(): string[];
  dispose(): Promise<void>;
}

/** Installs the wheel (no dependencies: the pinned environment has them) into `target`. */
export function installWheel(python: string, wheel: string, target: string): void {
  runChecked(
    python,
    ["-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--target", target, wheel],
    {},
  );
}

export async function createPythonStack(options: PythonStackOptions): Promise<PythonStack> {
  const venv = ensurePythonVenv();
  const root = fs.mkdtempSync(path.join(options.scratch, `${options.name}-`));
  const dir = path.join(root, "project");
  const backend = path.join(root, "backend");
  const home = path.join(root, "home");
  const site = path.join(root, "site-packages");
  fs.cpSync(options.programDir, dir, { recursive: true });
  fs.mkdirSync(backend);
  fs.mkdirSync(home);
  installWheel(venv.python, options.wheel, site);

  const env = {
    PATH: [...(options.path ?? []), path.join(options.cliRoot, "bin"), process.env.PATH ?? ""].join(
      path.delimiter,
    ),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "irm-tests",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: home,
    // As for the other engine stacks (real-stack.ts): the Go CLI collects garbage less often.
    GOGC: process.env.GOGC ?? "400",
    ...options.env,
  };
  const settings = {
    workDir: dir,
    project: options.name,
    stack: "dev",
    cliRoot: options.cliRoot,
    env,
    config: options.config,
  };
  const child: ChildProcess = spawn(venv.python, [DRIVER, JSON.stringify(settings)], {
    cwd: dir,
    env: { ...process.env, ...env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  const printed: string[] = [];
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    stderr += text;
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const pending: Array<(line: string | undefined) => void> = [];
  lines.on("line", (line) => pending.shift()?.(line));
  child.on("exit", () => {
    for (const waiter of pending.splice(0)) waiter(undefined);
  });
  const next = () =>
    new Promise<PythonStepAnswer>((resolve, reject) => {
      pending.push((line) => {
        if (line === undefined)
          reject(new Error(`the Python driver ended:\n${stderr.slice(-4000)}`));
        else {
          const answer = JSON.parse(line) as PythonStepAnswer;
          printed.push(answer.output ?? "");
          resolve(answer);
        }
      });
    });

  const ready = await next();
  if (!ready.ok) throw new Error(`the Python driver did not start: ${ready.error}`);

  return {
    dir,
    pid: child.pid!,
    backend,
    step(op, extra = {}) {
      const started = Date.now();
      const answer = next();
      child.stdin!.write(`${JSON.stringify({ op, ...extra })}\n`);
      return answer.finally(() =>
        logEngineStep(options.name, op, Object.keys(extra), Date.now() - started),
      );
    },
    editProgram(from, to) {
      editProgram(dir, from, to, "__main__.py");
    },
    stderr: () => stderr,
    outputs: () => [...printed],
    async dispose() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.stdin!.end();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
