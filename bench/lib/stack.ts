/**
 * A benchmark program as a stack on the real Pulumi engine (`real-engine.ts`: the
 * package installed as users install it, every resource through the real provider
 * host), with what the suites read of each run: its time, its requests from the
 * emulator's log, its steps, and the state after it (`pulumi stack export`).
 */
import { createRequire } from "node:module";
import * as path from "node:path";
import type { LogEntry } from "../../harness/emulator";
import { type StateResource, stateResourceOf } from "../../harness/stack";
import type { EmulatorProcess } from "./emulator-process";
import type { RealEngine, RealRunKind } from "./real-engine";

export type { StateResource };

export interface TimedRun {
  ms: number;
  requests: LogEntry[];
  /** Steps by op (`create`, `same`, `update`, `refresh`, `delete`, ...). */
  steps: Record<string, number>;
  /** Steps that changed something (every op but `same` and `refresh`). */
  changed: number;
  /** The state after the run. */
  resources: StateResource[];
}

export interface BenchStack {
  /** The project folder (below the engine's installed base). */
  dir: string;
  projectName: string;
  /** The state after the last run. */
  resources: StateResource[];
  /** `require` as the program sees it: the installed package. */
  require: NodeJS.Require;
  /** `pulumi up`, after setting `projectConfig` (keys without the project prefix) if given. */
  up(projectConfig?: Record<string, string>): Promise<TimedRun>;
  refresh(): Promise<TimedRun>;
  destroy(): Promise<TimedRun>;
  /** Deletes the project and its backend. */
  dispose(): void;
}

export interface BenchStackOptions {
  /** Names the project folder. */
  name: string;
  /** The program folder to copy (under `bench/fixtures/` or `examples/`). */
  programDir: string;
  emulator: EmulatorProcess;
  /** Project config, keys without the project prefix. */
  projectConfig?: Record<string, string>;
}

export const FIXTURES_DIR = path.join(__dirname, "..", "fixtures");

/** Resources of a deployment as `pulumi stack export` gives them, engine resources left out. */
export function stateResources(exported: Array<Record<string, unknown>>): StateResource[] {
  return exported.map(stateResourceOf);
}

export async function createBenchStack(
  engine: RealEngine,
  options: BenchStackOptions,
): Promise<BenchStack> {
  const stack = await engine.createStack({
    name: options.name,
    programDir: options.programDir,
    emulator: options.emulator,
    projectConfig: options.projectConfig ?? {},
  });

  async function timed(kind: RealRunKind): Promise<TimedRun> {
    const run = await stack.run(kind);
    const resources = stateResources(await stack.exportResources());
    bench.resources = resources;
    const changed = Object.entries(run.steps)
      .filter(([op]) => op !== "same" && op !== "refresh")
      .reduce((sum, [, count]) => sum + count, 0);
    return { ms: run.ms, requests: run.requests, steps: run.steps, changed, resources };
  }

  const bench: BenchStack = {
    dir: stack.dir,
    projectName: stack.projectName,
    resources: [],
    require: createRequire(path.join(stack.dir, "index.ts")),
    async up(projectConfig) {
      if (projectConfig) await stack.setConfig(projectConfig);
      return timed("up");
    },
    refresh: () => timed("refresh"),
    destroy: () => timed("destroy"),
    dispose: () => stack.dispose(),
  };
  return bench;
}

/** An API path: the collection, then what follows it (a uid, a parent uid, or nothing). */
export const API_PATH = /^\/(?:iam|registry|vulnerabilities|events)\/v2beta1\/([A-Za-z]+)\/?(.*)$/;

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
