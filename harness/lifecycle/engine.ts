/**
 * A small Pulumi engine for tests: what `pulumi preview`, `pulumi up`, `pulumi refresh`
 * and `pulumi destroy` do to dynamic resources, on machines where the Pulumi CLI cannot
 * be provided. It is test equipment, not a product: one stack, dynamic resources only.
 * Wherever it differs from the real engine it is wrong: steps run in parallel (at most
 * `parallel` at once), deletes follow the recorded dependencies in the engine's
 * antichains, a preview runs the program with unknowns and writes nothing, and resource
 * options are honoured or refused (`run-up.ts`).
 *
 * `up` and `preview` run the program in a child process (`run-up.ts`); `refresh` and
 * `destroy` need no program and talk to a fresh provider host directly. Every run starts
 * a fresh host process, because the host caches providers per `__provider` text.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { startProviderHost } from "../provider-host";
import {
  deleteProtectedMessage,
  deleteSchedule,
  emptyState,
  type RunResult,
  readProjectFile,
  type StackState,
  type StateResource,
  type Step,
  type UpRequest,
} from "./state";

export * from "./state";

export interface RunOptions {
  /** Stack configuration, `ns:key` → value (`irm:apiUrl`, `irm:token`, project keys). */
  config: Record<string, string>;
  /** Configuration keys holding secrets (sent to the provider as secrets). */
  secretKeys?: string[];
  /** Extra environment for the program and the provider host (e.g. `IRM_DELETE_TIMEOUT_MS`). */
  env?: Record<string, string>;
  /** `up` stops the program after this long (default 120 s) so a hang cannot outlive a test. */
  timeoutMs?: number;
  /**
   * How many resource steps may run at once. The engine's own default is
   * `defaultParallel()` (what `createSmallEngineStack` uses); these functions default to 1
   * for the callers written when this engine ran one step at a time.
   */
  parallel?: number;
  /** Fail the run (after it ran) when it changed or would change anything. */
  expectNoChanges?: boolean;
  /**
   * Policy pack folders (`--policy-pack`) for `up` and `preview`: each resource is
   * analyzed after Check, the stack after the program, as the engine does.
   */
  policyPacks?: string[];
}

export interface UpResult extends RunResult {
  /** What the program and the host printed (for diagnosing a failed run). */
  log: string;
}

/** A new, empty state for the project in `projectDir`. */
export function newStack(projectDir: string, stack = "dev"): StackState {
  return emptyState(readProjectFile(projectDir).name, stack);
}

/** `pulumi up --skip-preview` (as the Automation API runs it): runs the program and applies its resources. */
export async function up(
  projectDir: string,
  state: StackState,
  options: RunOptions,
): Promise<UpResult> {
  const result = await runProgram(projectDir, state, options, false);
  return expectingNoChanges(result, options, "update");
}

/**
 * `pulumi preview`: runs the program with dryRun and reports the steps an `up` would
 * take, calling only Check and Diff. The state it returns is the one it was given.
 */
export async function preview(
  projectDir: string,
  state: StackState,
  options: RunOptions,
): Promise<UpResult> {
  const result = await runProgram(projectDir, state, options, true);
  return expectingNoChanges({ ...result, state }, options, "preview");
}

async function runProgram(
  projectDir: string,
  state: StackState,
  options: RunOptions,
  dryRun: boolean,
): Promise<UpResult> {
  const workDir = fs.mkdtempSync(path.join(projectDir, ".engine-"));
  try {
    const request: UpRequest = {
      projectDir,
      stateFile: path.join(workDir, "state.json"),
      resultFile: path.join(workDir, "result.json"),
      stack: state.stack,
      config: options.config,
      secretKeys: options.secretKeys ?? [],
      dryRun,
      parallel: options.parallel ?? 1,
      policyPacks: (options.policyPacks ?? []).map((dir) => path.resolve(projectDir, dir)),
    };
    fs.writeFileSync(request.stateFile, JSON.stringify(state));
    const requestFile = path.join(workDir, "request.json");
    fs.writeFileSync(requestFile, JSON.stringify(request));

    const { code, log } = await runChild(
      projectDir,
      requestFile,
      options.env,
      options.timeoutMs ?? 120_000,
    );
    if (!fs.existsSync(request.resultFile)) {
      throw new Error(`${dryRun ? "preview" : "up"} crashed (exit code ${code}):\n${log}`);
    }
    const result = JSON.parse(fs.readFileSync(request.resultFile, "utf8")) as RunResult;
    return { ...result, log };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** `--expect-no-changes`: the run happens, then fails if any step was not `same`. */
function expectingNoChanges<R extends RunResult>(
  result: R,
  options: RunOptions,
  operation: "update" | "preview" | "refresh",
): R {
  if (!options.expectNoChanges || result.error !== undefined) return result;
  if (result.steps.every((step) => step.op === "same")) return result;
  return {
    ...result,
    error: `no changes were expected for ${operation} but changes were proposed`,
  };
}

/** At most `limit` tasks of `items` at once; stops starting new ones once `stop()` is true. */
async function runLimited<T>(
  items: T[],
  limit: number,
  stop: () => boolean,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      const item = items[next++];
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** `pulumi refresh`: reads every resource in parallel; drops the gone, records outside changes. */
export async function refresh(
  projectDir: string,
  state: StackState,
  options: RunOptions,
): Promise<RunResult> {
  const host = await startProviderHost({
    cwd: projectDir,
    projectName: state.project,
    env: options.env,
  });
  const steps: Step[] = [];
  const refreshed = new Map<StateResource, StateResource | null>();
  let error: string | undefined;
  try {
    await host.configure(options.config, options.secretKeys);
    await runLimited(
      state.resources,
      options.parallel ?? 1,
      () => error !== undefined,
      async (resource) => {
        // Recorded when it starts, as the engine reports it; its outcome decides the op.
        const step: Step = { op: "same", urn: resource.urn };
        steps.push(step);
        try {
          const read = await host.read(
            resource.id,
            resource.urn,
            resource.outputs,
            resource.inputs,
          );
          if (read.id === "") {
            refreshed.set(resource, null);
            step.op = "refresh-delete";
            return;
          }
          const changed = !isDeepStrictEqual(read.properties, resource.outputs);
          refreshed.set(resource, {
            ...resource,
            id: read.id,
            outputs: read.properties,
            inputs: read.inputs ?? resource.inputs,
          });
          if (changed) step.op = "refresh-update";
        } catch (failure) {
          steps.splice(steps.indexOf(step), 1);
          error ??= `${resource.urn}: ${(failure as Error).message}`;
        }
      },
    );
  } finally {
    await host.close();
  }
  // State order is kept; what was not read (or failed) stays as it was.
  const resources: StateResource[] = [];
  for (const resource of state.resources) {
    const after = refreshed.get(resource);
    if (after === undefined) resources.push(resource);
    else if (after !== null) resources.push(after);
  }
  return expectingNoChanges({ state: { ...state, resources }, steps, error }, options, "refresh");
}

/**
 * `pulumi destroy`: deletes everything in dependency-ordered antichains, each in
 * parallel; a protected resource fails the run, a retained one leaves state without a
 * Delete call. After a failure no further step starts.
 */
export async function destroy(
  projectDir: string,
  state: StackState,
  options: RunOptions,
): Promise<RunResult> {
  if (options.expectNoChanges) {
    throw new Error("pulumi destroy has no --expect-no-changes; the small engine refuses it too");
  }
  const host = await startProviderHost({
    cwd: projectDir,
    projectName: state.project,
    env: options.env,
  });
  const steps: Step[] = [];
  const gone = new Set<StateResource>();
  let error: string | undefined;
  try {
    await host.configure(options.config, options.secretKeys);
    const pending = new Set(state.pendingDeletes);
    for (const antichain of deleteSchedule([...state.pendingDeletes, ...state.resources])) {
      if (error !== undefined) break;
      await runLimited(
        antichain,
        options.parallel ?? 1,
        () => error !== undefined,
        async (resource) => {
          let step: Step | undefined;
          try {
            if (!pending.has(resource) && resource.protect) {
              throw new Error(deleteProtectedMessage(resource.urn));
            }
            // Recorded when it starts, as the engine reports it; taken out if it fails.
            step = {
              op: resource.retainOnDelete
                ? "discard"
                : pending.has(resource)
                  ? "delete-replaced"
                  : "delete",
              urn: resource.urn,
            };
            steps.push(step);
            if (!resource.retainOnDelete) {
              await host.delete(resource.id, resource.urn, resource.outputs);
            }
            gone.add(resource);
          } catch (failure) {
            if (step) steps.splice(steps.indexOf(step), 1);
            error ??= `${resource.urn}: ${(failure as Error).message}`;
          }
        },
      );
    }
  } finally {
    await host.close();
  }
  const kept = (list: StateResource[]) => list.filter((r) => !gone.has(r));
  const resources = kept(state.resources);
  return {
    state: {
      ...state,
      resources,
      pendingDeletes: kept(state.pendingDeletes),
      // The stack's outputs go with its last resource.
      outputs: error === undefined ? {} : state.outputs,
    },
    steps,
    error,
  };
}

function runChild(
  projectDir: string,
  requestFile: string,
  env: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<{ code: number | null; log: string }> {
  const runner = path.join(__dirname, "run-up.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", runner, requestFile], {
      cwd: projectDir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
    });
    const timer = setTimeout(() => {
      log += `\n[engine] up took longer than ${timeoutMs} ms and was stopped\n`;
      child.kill("SIGTERM");
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}
