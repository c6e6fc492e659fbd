/**
 * The interface the lifecycle scenarios are written against: a stack on the real Pulumi
 * engine (the CLI, through the Automation API, in a project folder with the package
 * installed from its packed tarball), implemented by `real-engine/real-stack.ts`.
 */
import type { TestEmulator } from "./emulator";

/** What the engine did to one resource, as its events report it. */
export type StepOp =
  | "create"
  | "update"
  | "replace"
  | "same"
  | "delete"
  /** The old half of a replacement, deleted after (create-before-delete) or before. */
  | "delete-replaced"
  /** Refresh found the object changed outside the stack. */
  | "refresh-update"
  /** Refresh found the object gone and dropped it from state. */
  | "refresh-delete"
  /** The resource left the stack without being deleted (`retainOnDelete`). */
  | "discard";

export interface Step {
  op: StepOp;
  /** Resource name (the last URN segment). */
  name: string;
  /** Type token, e.g. `pulumi-nodejs:dynamic/irm:Group`. */
  type: string;
}

export interface RunOutcome {
  /** Steps other than `same`, in the order the engine reported them. */
  changes: Step[];
  /** Every step, `same` included. */
  steps: Step[];
  /**
   * `up`, `refresh` and `destroy` on the real engine: the changes the preview the
   * command ran first announced (what the user was shown before the run applied).
   */
  planned?: Step[];
  /**
   * Names of the resources whose refresh (a `refresh`, or `preview` with `refresh`) read
   * back an object differing from the state in its inputs or outputs, or gone: whatever
   * step the engine reported (it reports `same` when only outputs moved).
   */
  refreshChanged: string[];
  /** The failure that stopped the run (program, provider or engine message), if any. */
  error?: string;
  /** Everything the engine printed for this run (events and diagnostics). */
  output: string;
}

export interface RunSettings {
  /** Fail the run when it would change anything (`--expect-no-changes`). */
  expectNoChanges?: boolean;
  /** Engine parallelism; default the engine's own. */
  parallel?: number;
  /** Policy pack folders (`--policy-pack`). */
  policyPacks?: string[];
  /**
   * `up`, `refresh` or `destroy` without the preview the CLI runs first
   * (`--skip-preview`): only where that preview is not what the test proves (another
   * step of the test previews the same thing, or the run only brings state along).
   * `planned` is then undefined.
   */
  skipPreview?: boolean;
  /**
   * `preview` and `up`: refresh first, in the same run (`pulumi preview --refresh`,
   * `pulumi up --refresh`), so the plan also shows drift: a refresh that would change
   * or drop an object is a `refresh-update` or `refresh-delete` step. One `up` then
   * both checks that a stack has converged and runs as a pipeline's next `up` would.
   */
  refresh?: boolean;
}

export interface StateResource {
  urn: string;
  name: string;
  type: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  protect: boolean;
  retainOnDelete: boolean;
  dependencies: string[];
}

/** A resource of a checkpoint (as `pulumi stack export` prints it) as a `StateResource`. */
export function stateResourceOf(r: Record<string, unknown>): StateResource {
  const urn = String(r.urn);
  return {
    urn,
    name: urn.split("::").pop() ?? urn,
    type: String(r.type),
    id: String(r.id ?? ""),
    inputs: (r.inputs ?? {}) as Record<string, unknown>,
    outputs: (r.outputs ?? {}) as Record<string, unknown>,
    protect: r.protect === true,
    retainOnDelete: r.retainOnDelete === true,
    dependencies: (r.dependencies ?? []) as string[],
  };
}

export interface EngineStack {
  engine: "real";
  /** The project folder (program copy; the installed package is reachable from it). */
  dir: string;
  /**
   * The `pulumi` executable and the environment the runs use (backend, passphrase,
   * home), for a scenario that drives the CLI itself, such as an interrupted run.
   */
  cli: { path: string; env: NodeJS.ProcessEnv };
  preview(settings?: RunSettings): Promise<RunOutcome>;
  up(settings?: RunSettings): Promise<RunOutcome>;
  refresh(settings?: RunSettings): Promise<RunOutcome>;
  destroy(settings?: RunSettings): Promise<RunOutcome>;
  /** Resources in state (the real engine's `stack export`), the stack resource left out. */
  resources(): Promise<StateResource[]>;
  /** Stack outputs of the last successful update. */
  outputs(): Promise<Record<string, unknown>>;
  /** Replaces `before` (which must occur exactly once) in the program's index.ts. */
  editProgram(before: string | RegExp, after: string): void;
  /** Sets a config value of the stack (`<project>:<key>` unless the key has a namespace). */
  setConfig(key: string, value: string, secret?: boolean): Promise<void>;
  /**
   * The emulator's request log since the last run began (each run clears it first), as
   * `METHOD /path?query status` with `<resource name>` for uids the stack has known.
   */
  takeRequests(): Promise<string[]>;
  /** Uid (id) of the resource of this name in the state after the last run. */
  uidOf(name: string): string;
  /**
   * Everything the run left on disk (state, its backups and history, the engine's logs
   * and workspace files, the program folder), as text: what a secret must never appear
   * in.
   */
  persistedText(): string;
  /** Stops what the stack started and deletes its folders. */
  dispose(): Promise<void>;
}

export interface EngineStackOptions {
  /** Folder under `examples/` or an absolute program folder. */
  program: string;
  emulator: TestEmulator;
  /** Project config besides `irm:apiUrl` and `irm:token`, keys without the project prefix. */
  projectConfig?: Record<string, string>;
  /** Environment for the engine, the program and the provider host. */
  env?: Record<string, string>;
  /** Leave `irm:token` out of the stack's config: the token comes from `IRM_TOKEN` in `env`. */
  tokenFromEnv?: boolean;
  /** Names the scratch folder. */
  name: string;
}
