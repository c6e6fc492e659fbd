/**
 * A benchmark program as a stack, run by the project's mini engine
 * (`harness/lifecycle/engine.ts`) against an emulator: the package installed
 * as users install it, every resource through the real provider host. Each run is
 * timed and its requests taken from the emulator's request log.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LogEntry } from "../../harness/emulator";
import { type ConsumerProject, createConsumerProject } from "../../harness/installed-package";
import {
  destroy,
  newStack,
  type RunOptions,
  type RunResult,
  refresh,
  type StackState,
  up,
} from "../../harness/lifecycle/engine";
import type { EmulatorProcess } from "./emulator-process";
import { now } from "./stats";

export interface TimedRun {
  result: RunResult;
  ms: number;
  requests: LogEntry[];
}

export interface BenchStack {
  project: ConsumerProject;
  projectName: string;
  state: StackState;
  up(projectConfig?: Record<string, string>): Promise<TimedRun>;
  refresh(): Promise<TimedRun>;
  destroy(): Promise<TimedRun>;
  /** Deletes the consumer project folder (each run of the benchmark makes its own). */
  removeProject(): void;
}

export interface BenchStackOptions {
  /** Folder under `.tmp/` for the consumer project. */
  scratchName: string;
  /** The program folder to copy (under `bench/fixtures/` or `examples/`). */
  programDir: string;
  emulator: EmulatorProcess;
  /** Project config, keys without the project prefix. */
  projectConfig?: Record<string, string>;
  /** Stop a run after this long. */
  timeoutMs?: number;
}

export const FIXTURES_DIR = path.join(__dirname, "..", "fixtures");

export function createBenchStack(options: BenchStackOptions): BenchStack {
  const { emulator } = options;
  const project = createConsumerProject({
    name: options.scratchName,
    programDir: options.programDir,
  });
  const projectName = newStack(project.dir).project;
  const baseConfig = (projectConfig: Record<string, string>): RunOptions => {
    const config: Record<string, string> = {
      "irm:apiUrl": emulator.url,
      "irm:token": emulator.token,
    };
    for (const [key, value] of Object.entries(projectConfig)) {
      config[`${projectName}:${key}`] = value;
    }
    return { config, secretKeys: ["irm:token"], timeoutMs: options.timeoutMs ?? 600_000 };
  };
  let lastProjectConfig = options.projectConfig ?? {};

  async function timedRun(run: () => Promise<RunResult>): Promise<TimedRun> {
    await emulator.clearRequests();
    const start = now();
    const result = await run();
    const ms = now() - start;
    if (result.error !== undefined) throw new Error(`stack run failed: ${result.error}`);
    stack.state = result.state;
    return { result, ms, requests: await emulator.requests() };
  }

  const stack: BenchStack = {
    project,
    projectName,
    state: newStack(project.dir),
    up(projectConfig) {
      if (projectConfig) lastProjectConfig = { ...lastProjectConfig, ...projectConfig };
      return timedRun(() => up(project.dir, stack.state, baseConfig(lastProjectConfig)));
    },
    refresh: () => timedRun(() => refresh(project.dir, stack.state, baseConfig(lastProjectConfig))),
    destroy: () => timedRun(() => destroy(project.dir, stack.state, baseConfig(lastProjectConfig))),
    removeProject: () => fs.rmSync(project.dir, { recursive: true, force: true }),
  };
  return stack;
}

/** An API path: the collection, then what follows it (a uid, a parent uid, or nothing). */
export const API_PATH = /^\/(?:iam|registry|vulnerabilities)\/v2beta1\/([A-Za-z]+)\/?(.*)$/;

/** The collection a logged request addresses (`groups`, `identities`, `roleBindings`, ...). */
export function collectionOf(entry: LogEntry): string {
  return entry.path.match(API_PATH)?.[1] ?? entry.path;
}

/** `METHOD /path?query status` lines, for details and diagnostics (uids shortened). */
export function describeRequests(entries: LogEntry[]): string[] {
  return entries.map((entry) => {
    const query = entry.query ? `?${decodeURIComponent(entry.query)}` : "";
    const path = decodeURIComponent(entry.path).replace(/[0-9a-f]{16,40}/g, "…");
    return `${entry.method} ${path}${query.replace(/[0-9a-f]{16,40}/g, "…")} ${entry.status}`;
  });
}
