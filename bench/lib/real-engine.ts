/**
 * Benchmark stacks on the real Pulumi engine: the CLI found by `findPulumiCli()`
 * (`npm run pulumi:install`), the package packed and installed once per suite below a
 * scratch folder (`harness/real-engine/installed-base.ts`), a `file://`
 * backend and a passphrase secrets provider per stack.
 *
 * The stack and its config are set up through the Automation API's `LocalWorkspace`, as
 * the test harness does; each timed run is one `pulumi up|refresh|destroy --yes
 * --skip-preview` process, timed from spawn to exit. (The Automation API's `up()` also
 * runs `stack history` and `stack output` after the update, which would add a CLI start
 * and a read of the whole state to every figure.) The run's engine events go to an event
 * log, read after the clock stopped, to check that the run did what was measured.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import type { LogEntry } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import { createPythonStack, type PythonStack } from "../../harness/python/python-stack";
import { createInstalledBase } from "../../harness/real-engine/installed-base";
import { findPulumiCli, type PulumiCli } from "../../scripts/pulumi-cli/locate";
import { pythonWheel } from "../../scripts/sdks/generate";
import type { EmulatorProcess } from "./emulator-process";
import { runMeasuringTree, type TreeCpu } from "./process-cpu";
import type { Section } from "./report";
import { now } from "./stats";

export type RealRunKind = "up" | "refresh" | "destroy" | "preview";

export interface RealRunOptions {
  parallel?: number;
  /** `up` and `destroy` with the preview a user's `pulumi up --yes` runs first (default: skipped). */
  withPreview?: boolean;
  /** Also measure the CPU of the run's whole process tree (`process-cpu.ts`). */
  cpu?: boolean;
}

/** Resource types the engine adds on its own: left out of step counts. */
const ENGINE_TYPES = /^pulumi:(pulumi:Stack|providers:)/;

export interface RealRun {
  ms: number;
  /** Steps by op (`create`, `same`, `update`, `refresh`, `delete`, ...), engine resources left out. */
  steps: Record<string, number>;
  /** The engine's summary of the run (resource changes by op, the stack included). */
  summary: Record<string, number>;
  /** Every step in the order the engine started it, engine resources left out. */
  order: Array<{ op: string; urn: string }>;
  requests: LogEntry[];
  /** With `cpu: true`: CPU of the whole process tree, and by kind of process. */
  cpu?: TreeCpu;
}

export interface RealBenchStack {
  dir: string;
  /** The project's name (`Pulumi.yaml`), which prefixes its config keys and URNs. */
  projectName: string;
  run(kind: RealRunKind, options?: RealRunOptions): Promise<RealRun>;
  /** Bytes of the stack's checkpoint on the file backend, as the engine last wrote it. */
  stateBytes(): number;
  /** Sets project config (keys without a `:` get the project's prefix), as secrets if asked. */
  setConfig(values: Record<string, string>, options?: { secret?: boolean }): Promise<void>;
  /** The stack's outputs, secrets in plain text (`pulumi stack output --show-secrets`). */
  outputs(): Promise<Record<string, unknown>>;
  /** The deployment's resources (`pulumi stack export`), engine resources left out. */
  exportResources(): Promise<Array<Record<string, unknown>>>;
  dispose(): void;
}

export interface RealEngine {
  cli: PulumiCli;
  /** Folder holding the installed package; project folders go below it. */
  base: string;
  createStack(options: {
    name: string;
    programDir: string;
    emulator: EmulatorProcess;
    projectConfig: Record<string, string>;
    /** More environment for the CLI and what it starts; `undefined` removes a variable. */
    env?: Record<string, string | undefined>;
    /** Changes the copied project folder before the stack is made (a face's setup). */
    prepare?: (dir: string) => void;
  }): Promise<RealBenchStack>;
  close(): void;
}

/** The real engine, or undefined when no CLI is at hand (the caller says so; no fallback). */
export function openRealEngine(): RealEngine | undefined {
  const cli = findPulumiCli();
  if (!cli) return undefined;
  const base = createInstalledBase();
  return {
    cli,
    base,
    createStack: (options) => createStack(cli, base, options),
    close: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}

/** The section a real-engine suite writes when no CLI is at hand (it says so; no fallback). */
export function noCliSection(
  context: { log(message: string): void },
  id: string,
  title: string,
): Section[] {
  context.log(`${id}: no Pulumi CLI found (npm run pulumi:install provides one): skipped`);
  return [
    {
      id,
      title,
      method:
        "**Skipped in this run: no Pulumi CLI was found.** This suite runs only on the real engine.",
      measurements: [],
      notes: [],
    },
  ];
}

/**
 * A Python program (`programDir`'s `__main__.py`) on the native plugin, as
 * `harness/python/` runs it: the generated SDK's wheel (`npm run sdks`), the installed
 * package's plugin on PATH, the emulator's address and token, and the project's `config`.
 */
export function createPythonBenchStack(
  engine: RealEngine,
  emulator: EmulatorProcess,
  options: { name: string; programDir: string; config: Record<string, string> },
): Promise<PythonStack> {
  return createPythonStack({
    name: options.name,
    programDir: options.programDir,
    cliRoot: engine.cli.root,
    scratch: engine.base,
    wheel: pythonWheel(path.join(REPO_ROOT, "dist", "sdks")),
    path: [path.join(engine.base, "node_modules", "pulumi-irm", "plugin")],
    config: {
      "irm:apiUrl": { value: emulator.url },
      "irm:token": { value: emulator.token, secret: true },
      ...Object.fromEntries(
        Object.entries(options.config).map(([key, value]) => [`${options.name}:${key}`, { value }]),
      ),
    },
  });
}

/** Stop a run that takes longer than this: loads are bounded in time. */
const RUN_TIMEOUT_MS = 20 * 60_000;

async function createStack(
  cli: PulumiCli,
  base: string,
  options: {
    name: string;
    programDir: string;
    emulator: EmulatorProcess;
    projectConfig: Record<string, string>;
    env?: Record<string, string | undefined>;
    prepare?: (dir: string) => void;
  },
): Promise<RealBenchStack> {
  const dir = fs.mkdtempSync(path.join(base, `${options.name}-`));
  fs.cpSync(options.programDir, dir, { recursive: true });
  options.prepare?.(dir);
  const scratch = fs.mkdtempSync(path.join(base, `${options.name}-engine-`));
  const backend = path.join(scratch, "backend");
  const home = path.join(scratch, "home");
  fs.mkdirSync(backend);
  fs.mkdirSync(home);
  const env: Record<string, string | undefined> = {
    PATH: `${cli.bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "irm-bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: home,
    // As the test harness: the program only has to run, not be type-checked each time.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // Enables `--event-log`, as the Automation API does for every command it runs.
    PULUMI_DEBUG_COMMANDS: "true",
    ...options.env,
  };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const pulumiCommand = await PulumiCommand.get({ root: cli.root });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: "dev", workDir: dir },
    { pulumiCommand, envVars: env as Record<string, string>, pulumiHome: home },
  );
  const projectName = (await stack.workspace.projectSettings()).name;
  const setConfig = async (
    values: Record<string, string>,
    setOptions: { secret?: boolean } = {},
  ) => {
    const config: Record<string, { value: string; secret?: boolean }> = {};
    for (const [key, value] of Object.entries(values)) {
      config[key.includes(":") ? key : `${projectName}:${key}`] = {
        value,
        secret: setOptions.secret === true,
      };
    }
    await stack.setAllConfig(config);
  };
  await stack.setAllConfig({
    "irm:apiUrl": { value: options.emulator.url },
    "irm:token": { value: options.emulator.token, secret: true },
  });
  await setConfig(options.projectConfig);

  const processEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const key of Object.keys(options.env ?? {})) {
    if (options.env?.[key] === undefined) delete processEnv[key];
  }
  let runs = 0;

  async function pulumi(args: string[]): Promise<{ code: number; output: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(cli.pulumi, args, {
        cwd: dir,
        env: processEnv,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      const keep = (chunk: string) => {
        // Only the tail is kept for error messages.
        output = (output + chunk).slice(-20_000);
      };
      child.stdout.setEncoding("utf8").on("data", keep);
      child.stderr.setEncoding("utf8").on("data", keep);
      const timer = setTimeout(() => child.kill("SIGTERM"), RUN_TIMEOUT_MS);
      child.once("error", reject);
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code: code ?? (signal ? 128 : 1), output });
      });
    });
  }

  return {
    dir,
    projectName,
    setConfig,
    async run(kind, runOptions = {}) {
      const eventLog = path.join(scratch, `events-${++runs}.jsonl`);
      const args = [
        kind,
        ...(kind === "preview" ? [] : ["--yes"]),
        ...(kind === "preview" || runOptions.withPreview ? [] : ["--skip-preview"]),
        "--non-interactive",
        "--color",
        "never",
        "--suppress-progress",
        "--stack",
        "dev",
        "--event-log",
        eventLog,
      ];
      if (runOptions.parallel !== undefined) args.push("--parallel", String(runOptions.parallel));
      await options.emulator.clearRequests();
      const start = now();
      const measured = runOptions.cpu
        ? await runMeasuringTree(cli.pulumi, args, {
            cwd: dir,
            env: processEnv,
            timeoutMs: RUN_TIMEOUT_MS,
          })
        : undefined;
      const { code, output } = measured ?? (await pulumi(args));
      const ms = now() - start;
      if (code !== 0) throw new Error(`pulumi ${kind} exited ${code}:\n${output}`);
      const requests = await options.emulator.requests();
      const { steps, summary, order } = readEventLog(eventLog);
      fs.rmSync(eventLog, { force: true });
      return { ms, steps, summary, order, requests, ...(measured ? { cpu: measured.cpu } : {}) };
    },
    stateBytes() {
      const file = path.join(backend, ".pulumi", "stacks", projectName, "dev.json");
      return fs.statSync(file).size;
    },
    async outputs() {
      const outputs = await stack.outputs();
      return Object.fromEntries(
        Object.entries(outputs).map(([key, output]) => [key, output.value]),
      );
    },
    async exportResources() {
      const deployment = (await stack.exportStack()).deployment as {
        resources?: Array<Record<string, unknown>>;
      };
      return (deployment.resources ?? []).filter((r) => !ENGINE_TYPES.test(String(r.type)));
    },
    dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    },
  };
}

interface EventLine {
  resourcePreEvent?: { metadata?: { op?: string; type?: string; urn?: string } };
  summaryEvent?: { resourceChanges?: Record<string, number> };
}

/** Steps by op and in order from the engine's resource pre-events, and its summary of changes. */
function readEventLog(file: string): {
  steps: Record<string, number>;
  summary: Record<string, number>;
  order: Array<{ op: string; urn: string }>;
} {
  const steps: Record<string, number> = {};
  const order: Array<{ op: string; urn: string }> = [];
  let summary: Record<string, number> = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const event = JSON.parse(line) as EventLine;
    const meta = event.resourcePreEvent?.metadata;
    if (meta?.op && !ENGINE_TYPES.test(meta.type ?? "")) {
      steps[meta.op] = (steps[meta.op] ?? 0) + 1;
      order.push({ op: meta.op, urn: meta.urn ?? "" });
    }
    if (event.summaryEvent) summary = event.summaryEvent.resourceChanges ?? {};
  }
  return { steps, summary, order };
}
