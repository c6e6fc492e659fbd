/**
 * The small engine's stack state and the rules it shares between `up`, `refresh` and
 * `destroy`. State is plain JSON, persisted between runs like a checkpoint: resources
 * in registration order, each with its inputs, outputs, the URNs it depends on and the
 * resource options the engine acts on later (protect, retainOnDelete).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { PropertyMap } from "../provider-host";
import type { StepOp } from "../stack";

export interface StateResource {
  urn: string;
  type: string;
  id: string;
  /** Checked inputs, `__provider` (the serialized provider text) included. */
  inputs: PropertyMap;
  /** Outputs as the provider returned them, `__provider` included. */
  outputs: PropertyMap;
  /** URNs of the resources this one depends on (explicitly or through its inputs). */
  dependencies: string[];
  /** Per input property, the URNs its value came from (a delete-before-replace needs them). */
  propertyDependencies?: Record<string, string[]>;
  /** URN of the parent resource, if the program gave one. */
  parent?: string;
  /** `protect`: the engine refuses to delete or replace the resource. */
  protect?: boolean;
  /** `retainOnDelete`: the engine drops the resource from state without deleting it. */
  retainOnDelete?: boolean;
  /** `ignoreChanges` and `replaceOnChanges` as last registered (a dependent's diff uses them). */
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
}

export interface StackState {
  project: string;
  stack: string;
  resources: StateResource[];
  /** Old halves of replacements whose delete has not happened yet. */
  pendingDeletes: StateResource[];
  /** Stack outputs of the last successful run of the program. */
  outputs: PropertyMap;
}

/** What the engine did to one resource: the same ops the real engine's steps map to. */
export type { StepOp };

export interface Step {
  op: StepOp;
  urn: string;
}

export interface RunResult {
  state: StackState;
  steps: Step[];
  /** The failure that stopped the run (provider or program message), if any. */
  error?: string;
}

export function emptyState(project: string, stack = "dev"): StackState {
  return { project, stack, resources: [], pendingDeletes: [], outputs: {} };
}

export function loadState(file: string): StackState {
  return JSON.parse(fs.readFileSync(file, "utf8")) as StackState;
}

export function saveState(file: string, state: StackState): void {
  fs.writeFileSync(file, JSON.stringify(state, null, 2));
}

/** URNs a resource depends on for deletion: its dependencies, property dependencies and parent. */
export function dependencyUrns(resource: StateResource): Set<string> {
  const urns = new Set(resource.dependencies);
  for (const list of Object.values(resource.propertyDependencies ?? {})) {
    for (const urn of list) urns.add(urn);
  }
  if (resource.parent) urns.add(resource.parent);
  return urns;
}

/**
 * Schedules deletions as the Pulumi engine does (`ScheduleDeletes`): the condemned
 * resources are split into antichains, sets of resources none of which depends on
 * another; each antichain is deleted in parallel and must finish before the next starts.
 * Built from the bottom (resources with no condemned dependency first), then reversed,
 * so dependents always go before what they depend on. Only recorded dependencies count
 * (dependencies, property dependencies, parent), never the shape of ids.
 *
 * The engine runs an antichain's steps in no fixed order; here each antichain keeps the
 * reverse of the given order, so a run with `parallel: 1` is repeatable.
 */
export function deleteSchedule(condemned: StateResource[]): StateResource[][] {
  const remaining = [...condemned].reverse();
  const layers: StateResource[][] = [];
  while (remaining.length > 0) {
    const pendingUrns = new Set(remaining.map((r) => r.urn));
    let layer = remaining.filter((candidate) => {
      for (const urn of dependencyUrns(candidate)) {
        if (urn !== candidate.urn && pendingUrns.has(urn)) return false;
      }
      return true;
    });
    // A dependency cycle cannot come from a program; take what is left in one go.
    if (layer.length === 0) layer = [...remaining];
    for (const resource of layer) remaining.splice(remaining.indexOf(resource), 1);
    layers.push(layer);
  }
  return layers.reverse();
}

/** The deletion schedule flattened: dependents before what they depend on. */
export function deletionOrder(resources: StateResource[]): StateResource[] {
  return deleteSchedule(resources).flat();
}

/**
 * The engine's default parallelism (`pulumi up --parallel`): `PULUMI_PARALLEL` when set
 * to a positive number, otherwise four times the number of CPUs (Go's GOMAXPROCS).
 */
export function defaultParallel(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.PULUMI_PARALLEL);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return os.availableParallelism() * 4;
}

/** The engine's error for deleting a protected resource (`deleteProtectedError`). */
export function deleteProtectedMessage(urn: string): string {
  return (
    `resource ${JSON.stringify(urn)} cannot be deleted\n` +
    "because it is protected. To unprotect the resource, either remove the `protect` flag " +
    "from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
    `\`pulumi state unprotect '${urn}'\``
  );
}

/** The engine's error for replacing a protected resource. */
export function replaceProtectedMessage(urn: string): string {
  return (
    `unable to replace resource ${JSON.stringify(urn)}\n` +
    "as it is currently marked for protection. To unprotect the resource, remove the " +
    "`protect` flag from the resource in your Pulumi program and run `pulumi up`"
  );
}

/** Reads `name` and `main` from a project's Pulumi.yaml (flat keys only). */
export function readProjectFile(projectDir: string): { name: string; main?: string } {
  const text = fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8");
  const field = (key: string) =>
    text.match(new RegExp(`^${key}:\\s*["']?([^"'#\\n]+?)["']?\\s*$`, "m"))?.[1];
  const name = field("name");
  if (!name) throw new Error(`${projectDir}/Pulumi.yaml has no name`);
  return { name, main: field("main") };
}

/** What `engine.ts` hands to the `up` child process (`run-up.ts`). */
export interface UpRequest {
  projectDir: string;
  stateFile: string;
  resultFile: string;
  stack: string;
  config: Record<string, string>;
  secretKeys: string[];
  /** Preview: run the program with dryRun, send no create, update or delete to providers. */
  dryRun: boolean;
  /** How many resource steps may run at once. */
  parallel: number;
  /** Policy pack folders (`--policy-pack`), absolute. */
  policyPacks: string[];
}
