/**
 * The mini engine's stack state and the ordering rules it shares between `up`,
 * `refresh` and `destroy`. State is plain JSON, persisted between runs like a
 * checkpoint: resources in registration order, each with its inputs, outputs and
 * the URNs it depends on.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { PropertyMap } from "../provider-host";

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

/** What the engine did to one resource. */
export type StepOp =
  | "create"
  | "update"
  | "replace"
  | "same"
  | "delete"
  /** The old half of a create-before-delete replacement, deleted after the program ran. */
  | "delete-replaced"
  /** Refresh found the object changed outside the stack. */
  | "refresh-update"
  /** Refresh found the object gone and dropped it from state. */
  | "refresh-delete";

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

/** Does `dependent` have to go before `dependency` when deleting? */
function mustDeleteBefore(dependent: StateResource, dependency: StateResource): boolean {
  if (dependent === dependency) return false;
  // A child's uid is its parent's uid plus a segment: the service refuses to delete a
  // parent that still has children, whatever the recorded dependencies say.
  if (dependency.id !== "" && dependent.id.startsWith(`${dependency.id}/`)) return true;
  return dependent.dependencies.includes(dependency.urn);
}

/**
 * Orders resources for deletion: dependents before what they depend on; otherwise the
 * reverse of creation order, as the engine does.
 */
export function deletionOrder(resources: StateResource[]): StateResource[] {
  const remaining = [...resources].reverse();
  const ordered: StateResource[] = [];
  while (remaining.length > 0) {
    const index = remaining.findIndex(
      (candidate) => !remaining.some((other) => mustDeleteBefore(other, candidate)),
    );
    // A dependency cycle cannot come from a program; fall back to reverse order.
    const [next] = remaining.splice(Math.max(index, 0), 1);
    ordered.push(next);
  }
  return ordered;
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
}
