/**
 * Child-process entry of the mini engine's `up` (started by `engine.ts`):
 * `node --import tsx run-up.ts <request.json>`, with the project folder as working
 * directory, as the Pulumi language host runs a program.
 *
 * The program runs unmodified under `runtime.setMocks`; every dynamic resource it
 * registers goes through the real provider host as the engine sends it: Check (olds
 * from state), Diff against the prior outputs, then Create, Update, replace
 * (create-before-delete unless delete-before-replace) or nothing. The program gets
 * the real outputs back, so dependants see real uids. Afterwards, resources the
 * program no longer declares and the old halves of replacements are deleted,
 * dependants first. Running in a child process (not inside vitest's module
 * transform) keeps closure serialization and `require` as under the real runtime.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type * as PulumiModule from "@pulumi/pulumi";
import { type PropertyMap, type ProviderHost, startProviderHost } from "../provider-host";
import {
  deletionOrder,
  emptyState,
  type RunResult,
  readProjectFile,
  type StackState,
  type StateResource,
  type Step,
  type UpRequest,
} from "./state";

/** What the mock monitor knows about a registration before `newResource` sees it. */
interface Registration {
  urn: string;
  dependencies: string[];
  deleteBeforeReplace: boolean;
}

/** The parts of the (internal) mock monitor and runtime settings this engine hooks into. */
interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getDependenciesList(): string[];
  getDeletebeforereplace(): boolean;
}
interface MockMonitorHooks {
  newUrn(parent: string, type: string, name: string): string;
  registerResource(req: RegisterRequest, callback: (...args: unknown[]) => void): unknown;
}
interface RuntimeSettings {
  getMonitor(): MockMonitorHooks;
  waitForRPCs(): Promise<void>;
}

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

class UpEngine {
  readonly steps: Step[] = [];
  readonly registered = new Map<string, StateResource>();
  /** Old halves of create-before-delete replacements, deleted after the program. */
  readonly replacedOlds: StateResource[] = [];
  /** Prior resources already deleted during the run (delete-before-replace). */
  readonly deletedEarly = new Set<StateResource>();
  error: string | undefined;
  /** Settles at the first failure: like the language host, stop waiting for the program then. */
  readonly failed: Promise<void>;
  private signalFailure: () => void = () => undefined;

  constructor(
    private readonly host: ProviderHost,
    private readonly prior: StackState,
  ) {
    this.failed = new Promise((resolve) => {
      this.signalFailure = resolve;
    });
  }

  fail(message: string): Error {
    this.error ??= message;
    this.signalFailure();
    return new Error(message);
  }

  async register(
    registration: Registration,
    type: string,
    news: PropertyMap,
  ): Promise<StateResource> {
    const { urn, dependencies } = registration;
    // Like the engine, stop starting new steps once one has failed.
    if (this.error !== undefined) throw new Error(`${urn}: not attempted after an earlier failure`);
    const prior = this.prior.resources.find((r) => r.urn === urn);
    try {
      const checked = await this.host.check(urn, prior?.inputs ?? {}, news);
      if (checked.failures.length > 0) {
        const reasons = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
        throw new Error(`invalid inputs: ${reasons}`);
      }
      const inputs = checked.inputs;
      let entry: StateResource;
      if (!prior) {
        const created = await this.host.create(urn, inputs);
        entry = { urn, type, id: created.id, inputs, outputs: created.properties, dependencies };
        this.steps.push({ op: "create", urn });
      } else {
        const diff = await this.host.diff(prior.id, urn, prior.outputs, inputs);
        // DIFF_UNKNOWN means "engine, compare the inputs yourself".
        const changed =
          diff.changes === "some" ||
          (diff.changes === "unknown" && !isDeepStrictEqual(prior.inputs, inputs));
        if (!changed) {
          entry = { ...prior, inputs, dependencies };
          this.steps.push({ op: "same", urn });
        } else if (diff.replaces.length > 0) {
          if (diff.deleteBeforeReplace || registration.deleteBeforeReplace) {
            await this.host.delete(prior.id, urn, prior.outputs);
            this.deletedEarly.add(prior);
          } else {
            this.replacedOlds.push(prior);
          }
          const created = await this.host.create(urn, inputs);
          entry = { urn, type, id: created.id, inputs, outputs: created.properties, dependencies };
          this.steps.push({ op: "replace", urn });
        } else {
          const outputs = await this.host.update(prior.id, urn, prior.outputs, inputs);
          entry = { ...prior, inputs, outputs, dependencies };
          this.steps.push({ op: "update", urn });
        }
      }
      this.registered.set(urn, entry);
      return entry;
    } catch (error) {
      throw this.fail(`${urn}: ${(error as Error).message}`);
    }
  }

  /** Deletes what the program dropped and the old halves of replacements; builds the new state. */
  async finish(stackOutputs: PropertyMap | undefined): Promise<StackState> {
    const priorKept = this.prior.resources.filter(
      (r) => !this.registered.has(r.urn) && !this.deletedEarly.has(r),
    );
    const pending = [...this.prior.pendingDeletes, ...this.replacedOlds];
    const state: StackState = {
      ...this.prior,
      resources: [...this.registered.values()],
      pendingDeletes: [],
      outputs: this.error === undefined && stackOutputs ? stackOutputs : this.prior.outputs,
    };
    if (this.error !== undefined) {
      // A failed run deletes nothing: what was not reached stays as it was.
      state.resources.push(...priorKept);
      state.pendingDeletes = pending;
      return state;
    }
    const toDelete = deletionOrder([...pending, ...priorKept]);
    for (const [index, resource] of toDelete.entries()) {
      try {
        await this.host.delete(resource.id, resource.urn, resource.outputs);
        const replaced = pending.includes(resource);
        this.steps.push({ op: replaced ? "delete-replaced" : "delete", urn: resource.urn });
      } catch (error) {
        this.fail(`${resource.urn}: ${(error as Error).message}`);
        for (const left of toDelete.slice(index)) {
          if (pending.includes(left)) state.pendingDeletes.push(left);
          else state.resources.push(left);
        }
        break;
      }
    }
    return state;
  }
}

async function main(requestFile: string): Promise<void> {
  const request = JSON.parse(fs.readFileSync(requestFile, "utf8")) as UpRequest;
  const project = readProjectFile(request.projectDir);
  const prior = fs.existsSync(request.stateFile)
    ? (JSON.parse(fs.readFileSync(request.stateFile, "utf8")) as StackState)
    : emptyState(project.name, request.stack);

  // The host starts in its own process while this one loads @pulumi/pulumi: both take
  // most of a second, and side by side they cost one.
  const hostStarting = startProviderHost({ cwd: request.projectDir, projectName: project.name });
  const pulumi = require("@pulumi/pulumi") as typeof PulumiModule;
  const host = await hostStarting;
  // If the test gives up on this run, do not leave the host process behind.
  process.once("SIGTERM", () => {
    host.close().finally(() => process.exit(1));
  });
  const engine = new UpEngine(host, prior);
  let result: RunResult;
  try {
    await host.configure(request.config, request.secretKeys);
    const stackOutputs = await runProgram(pulumi, request, project, engine);
    const state = await engine.finish(stackOutputs);
    result = { state, steps: engine.steps, error: engine.error };
  } finally {
    await host.close();
  }
  fs.writeFileSync(request.resultFile, JSON.stringify(result));
}

/** Runs the program under mocks; resolves with its stack outputs, or undefined if it failed. */
async function runProgram(
  pulumi: typeof PulumiModule,
  request: UpRequest,
  project: { name: string; main?: string },
  engine: UpEngine,
): Promise<PropertyMap | undefined> {
  const registrations = new Map<string, Registration>();
  let queue: Promise<unknown> = Promise.resolve();
  // Registration failures also surface as unhandled rejections of dependants' outputs;
  // the first failure is already recorded, the rest is noise.
  process.on("unhandledRejection", (reason) => {
    engine.fail(reason instanceof Error ? reason.message : String(reason));
  });

  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        if (!args.custom) return { id: undefined, state: args.inputs };
        if (!args.type.startsWith("pulumi-nodejs:dynamic/")) {
          throw engine.fail(`the mini engine runs dynamic resources only, not ${args.type}`);
        }
        const registration = registrations.get(`${args.type}::${args.name}`);
        if (!registration) throw engine.fail(`no registration seen for ${args.type} ${args.name}`);
        // One step at a time: the emulator's request log then has a deterministic order.
        const step = queue.then(() => engine.register(registration, args.type, args.inputs));
        queue = step.catch(() => undefined);
        return step.then((entry) => ({ id: entry.id, state: entry.outputs }));
      },
      call(args) {
        throw engine.fail(`the mini engine supports no provider functions (${args.token})`);
      },
    },
    project.name,
    request.stack,
    false,
  );
  pulumi.runtime.setAllConfig(request.config, request.secretKeys);

  // Name URNs as the engine does (the root stack is not part of its children's type),
  // and see each registration's dependencies, which the public mocks API hides.
  const runtimeSettings = require("@pulumi/pulumi/runtime/settings") as RuntimeSettings;
  const monitor = runtimeSettings.getMonitor();
  monitor.newUrn = (parent, type, name) => {
    const parentType = parent ? parent.split("::")[2] : "";
    const qualifiedType =
      parentType && parentType !== ROOT_STACK_TYPE ? `${parentType}$${type}` : type;
    return `urn:pulumi:${request.stack}::${project.name}::${qualifiedType}::${name}`;
  };
  const registerResource = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    registrations.set(`${req.getType()}::${req.getName()}`, {
      urn: monitor.newUrn(req.getParent(), req.getType(), req.getName()),
      dependencies: req.getDependenciesList(),
      deleteBeforeReplace: req.getDeletebeforereplace(),
    });
    return registerResource(req, callback);
  };

  const programPath = resolveProgram(request.projectDir, project.main);
  let outputs: PropertyMap | undefined;
  const program = pulumi.runtime
    .runInPulumiStack(async () => {
      const exported: unknown = require(programPath);
      if (typeof exported === "function") return await (exported as () => unknown)();
      return exported;
    })
    .then(async (stackOutputs) => {
      await runtimeSettings.waitForRPCs();
      outputs = stackOutputs;
    });
  // After a failed step, outputs that depend on it never settle: stop waiting, as the
  // language host ends the program at the first error.
  await Promise.race([
    program.catch((error: unknown) => {
      engine.fail(error instanceof Error ? error.message : String(error));
    }),
    engine.failed,
  ]);
  await queue;
  return engine.error === undefined ? outputs : undefined;
}

function resolveProgram(projectDir: string, main: string | undefined): string {
  const target = path.resolve(projectDir, main ?? ".");
  if (!fs.statSync(target).isDirectory()) return target;
  const manifestFile = path.join(target, "package.json");
  const manifestMain = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { main?: string }).main
    : undefined;
  for (const candidate of [manifestMain, "index.ts", "index.js"]) {
    if (candidate && fs.existsSync(path.join(target, candidate)))
      return path.join(target, candidate);
  }
  throw new Error(`no program found in ${target}`);
}

if (require.main === module) {
  main(process.argv[2]).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    },
  );
}
