/**
 * An example program as a stack under test: a consumer project holding a copy of
 * `examples/<name>` and the installed package, wired to an emulator, with the state
 * kept between runs and helpers to read the emulator's request log in terms of the
 * program's resource names instead of random uids.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LogEntry, TestEmulator } from "../emulator";
import { type ConsumerProject, createConsumerProject, REPO_ROOT } from "../installed-package";
import {
  destroy,
  newStack,
  type RunOptions,
  type RunResult,
  refresh,
  type StackState,
  type UpResult,
  up,
} from "./engine";

export interface ExampleStack {
  project: ConsumerProject;
  /** State after the last run (each run below replaces it). */
  state: StackState;
  up(): Promise<UpResult>;
  refresh(): Promise<RunResult>;
  destroy(): Promise<RunResult>;
  /** Replaces `before` (which must occur exactly once) in the program copy. */
  editProgram(before: string | RegExp, after: string): void;
  /**
   * The request log since the last run began (each run clears it first), as
   * `METHOD /path?query status` with resource names for uids.
   */
  takeRequests(): Promise<string[]>;
  /** Uid of the resource of this name in the current state. */
  uidOf(resourceName: string): string;
}

export interface ExampleStackOptions {
  /** Folder under `examples/`. */
  example: string;
  emulator: TestEmulator;
  /** Project config besides `irm:apiUrl` and `irm:token`, keys without the project prefix. */
  projectConfig?: Record<string, string>;
  /** Environment for the program and the provider host. */
  env?: Record<string, string>;
  /** Folder name under `.tmp/` (default: `lifecycle-<example>`). */
  scratchName?: string;
}

export function createExampleStack(options: ExampleStackOptions): ExampleStack {
  const { emulator } = options;
  const project = createConsumerProject({
    name: options.scratchName ?? `lifecycle-${options.example}`,
    programDir: path.join(REPO_ROOT, "examples", options.example),
  });
  const projectName = newStack(project.dir).project;
  const config: Record<string, string> = {
    "irm:apiUrl": emulator.url,
    "irm:token": emulator.token,
  };
  for (const [key, value] of Object.entries(options.projectConfig ?? {})) {
    config[`${projectName}:${key}`] = value;
  }
  const runOptions: RunOptions = { config, secretKeys: ["irm:token"], env: options.env };

  // Every uid ever seen, by resource name, so old halves of replacements read well too.
  const names = new Map<string, string>([[emulator.rootGroupUid, "ROOT"]]);
  const remember = (state: StackState) => {
    for (const resource of [...state.resources, ...state.pendingDeletes]) {
      names.set(resource.id, `<${resource.urn.split("::").pop()}>`);
    }
  };

  const stack: ExampleStack = {
    project,
    state: newStack(project.dir),
    async up() {
      await emulator.clearRequests();
      const result = await up(project.dir, stack.state, runOptions);
      stack.state = result.state;
      remember(result.state);
      return result;
    },
    async refresh() {
      await emulator.clearRequests();
      remember(stack.state);
      const result = await refresh(project.dir, stack.state, runOptions);
      stack.state = result.state;
      return result;
    },
    async destroy() {
      await emulator.clearRequests();
      remember(stack.state);
      const result = await destroy(project.dir, stack.state, runOptions);
      stack.state = result.state;
      return result;
    },
    editProgram(before, after) {
      const file = path.join(project.dir, "index.ts");
      const source = fs.readFileSync(file, "utf8");
      const pattern =
        typeof before === "string"
          ? new RegExp(escapeRegExp(before), "g")
          : new RegExp(before, "g");
      const matches = source.match(pattern)?.length ?? 0;
      if (matches !== 1)
        throw new Error(`editProgram: expected one match of ${pattern}, found ${matches}`);
      fs.writeFileSync(file, source.replace(pattern, after));
    },
    async takeRequests() {
      const entries = await emulator.requests();
      await emulator.clearRequests();
      return entries.map((entry) => describeRequest(entry, names));
    },
    uidOf(resourceName) {
      const resource = stack.state.resources.find((r) => r.urn.endsWith(`::${resourceName}`));
      if (!resource) throw new Error(`no resource named ${resourceName} in state`);
      return resource.id;
    },
  };
  return stack;
}

/** `POST /iam/v2beta1/groups/<engineering> 200`: uids replaced by the names that own them. */
export function describeRequest(entry: LogEntry, names: Map<string, string>): string {
  // Longest uids first, so a child's uid is not half-replaced by its parent's name.
  const uids = [...names.keys()].sort((a, b) => b.length - a.length);
  const rename = (text: string) =>
    uids.reduce((out, uid) => out.split(uid).join(names.get(uid)!), text);
  const query = entry.query ? `?${rename(decodeURIComponent(entry.query))}` : "";
  return `${entry.method} ${rename(decodeURIComponent(entry.path))}${query} ${entry.status}`;
}

/** The write requests (anything but GET) of a described request list. */
export function writesOf(requests: string[]): string[] {
  return requests.filter((request) => !request.startsWith("GET "));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
