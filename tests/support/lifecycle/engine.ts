/**
 * A mini Pulumi engine for tests: what `pulumi up`, `pulumi refresh` and
 * `pulumi destroy` do to dynamic resources, without the Pulumi CLI. It is test
 * equipment, not a product: one stack, dynamic resources only, steps one at a time
 * (so the emulator's request log has a deterministic order), no preview.
 *
 * `up` runs the program in a child process (`run-up.ts`); `refresh` and `destroy`
 * need no program and talk to a fresh provider host directly. Every run starts a
 * fresh host process, because the host caches providers per `__provider` text.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { startProviderHost } from "../provider-host";
import {
  deletionOrder,
  emptyState,
  type RunResult,
  readProjectFile,
  type StackState,
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
}

export interface UpResult extends RunResult {
  /** What the program and the host printed (for diagnosing a failed run). */
  log: string;
}

/** A new, empty state for the project in `projectDir`. */
export function newStack(projectDir: string, stack = "dev"): StackState {
  return emptyState(readProjectFile(projectDir).name, stack);
}

/** `pulumi up --skip-preview`: runs the program and applies its resources. */
export async function up(
  projectDir: string,
  state: StackState,
  options: RunOptions,
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
      throw new Error(`up crashed (exit code ${code}):\n${log}`);
    }
    const result = JSON.parse(fs.readFileSync(request.resultFile, "utf8")) as RunResult;
    return { ...result, log };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

/** `pulumi refresh`: reads every resource; drops the gone, records outside changes. */
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
  const next: StackState = { ...state, resources: [] };
  let error: string | undefined;
  try {
    await host.configure(options.config, options.secretKeys);
    for (const [index, resource] of state.resources.entries()) {
      try {
        const read = await host.read(resource.id, resource.urn, resource.outputs, resource.inputs);
        if (read.id === "") {
          steps.push({ op: "refresh-delete", urn: resource.urn });
          continue;
        }
        const changed = !isDeepStrictEqual(read.properties, resource.outputs);
        steps.push({ op: changed ? "refresh-update" : "same", urn: resource.urn });
        next.resources.push({
          ...resource,
          id: read.id,
          outputs: read.properties,
          inputs: read.inputs ?? resource.inputs,
        });
      } catch (failure) {
        error = `${resource.urn}: ${(failure as Error).message}`;
        next.resources.push(...state.resources.slice(index));
        break;
      }
    }
  } finally {
    await host.close();
  }
  return { state: next, steps, error };
}

/** `pulumi destroy`: deletes everything, dependants first; stops at the first failure. */
export async function destroy(
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
  const order = deletionOrder([...state.pendingDeletes, ...state.resources]);
  const gone = new Set<string>();
  let error: string | undefined;
  try {
    await host.configure(options.config, options.secretKeys);
    for (const resource of order) {
      try {
        await host.delete(resource.id, resource.urn, resource.outputs);
        gone.add(`${resource.urn} ${resource.id}`);
        steps.push({ op: "delete", urn: resource.urn });
      } catch (failure) {
        error = `${resource.urn}: ${(failure as Error).message}`;
        break;
      }
    }
  } finally {
    await host.close();
  }
  const kept = (list: StackState["resources"]) => list.filter((r) => !gone.has(`${r.urn} ${r.id}`));
  return {
    state: {
      ...state,
      resources: kept(state.resources),
      pendingDeletes: kept(state.pendingDeletes),
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
