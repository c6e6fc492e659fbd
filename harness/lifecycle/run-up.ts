/**
 * Child-process entry of the small engine's `up` and `preview` (started by
 * `engine.ts`): `node --import tsx run-up.ts <request.json>`, with the project folder as
 * working directory, as the Pulumi language host runs a program.
 *
 * The program runs unmodified under `runtime.setMocks`; every dynamic resource it
 * registers goes through the real provider host as the Pulumi engine sends it. Like the
 * engine, it decides each resource's step one registration at a time (Check with the
 * olds from state, Diff against the prior outputs), then runs the steps themselves
 * (Create, Update, a replacement, nothing) in parallel, at most `parallel` at once. The
 * program gets the outputs back, so dependants see real uids. Afterwards, resources the
 * program no longer declares and the old halves of create-before-delete replacements
 * are deleted in the engine's dependency-ordered antichains.
 *
 * A preview (`dryRun`) runs the program with `isDryRun()` true and sends no Create,
 * Update or Delete: as the engine does for providers without preview support (dynamic
 * providers), a create or update hands the checked inputs back as outputs, so every
 * other output is unknown and reaches dependants' Check and Diff as the unknown sentinel.
 *
 * Policy packs (`--policy-pack`) analyze each resource's checked inputs before its step
 * and the stack after the program, as in the engine; a mandatory violation stops the run.
 *
 * Resource options honoured: protect, retainOnDelete, ignoreChanges, deleteBeforeReplace
 * (dependants replaced first, as the engine computes them), replaceOnChanges, dependsOn,
 * parent. Any other option the engine would act on is refused with an error. Running in
 * a child process (not inside vitest's module transform) keeps closure serialization
 * and `require` as under the real runtime.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type * as PulumiModule from "@pulumi/pulumi";
import type { RegisterResourceRequest } from "@pulumi/pulumi/proto/resource_pb";
import { type Diagnostic, type PolicyPackHost, startPolicyPack } from "../policy-pack-host";
import {
  type DiffResult,
  type PropertyMap,
  type ProviderHost,
  startProviderHost,
  UNKNOWN_VALUE,
} from "../provider-host";
import {
  deleteProtectedMessage,
  deleteSchedule,
  dependencyUrns,
  emptyState,
  type RunResult,
  readProjectFile,
  replaceProtectedMessage,
  type StackState,
  type StateResource,
  type Step,
  type StepOp,
  type UpRequest,
} from "./state";

/** What the mock monitor knows about a registration before `newResource` sees it. */
interface Registration {
  urn: string;
  type: string;
  parent: string;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  ignoreChanges: string[];
  replaceOnChanges: string[];
  /** Only when the program set it: it then overrides the provider's choice. */
  deleteBeforeReplace?: boolean;
  /** Options set that this engine cannot honour (the registration fails). */
  unsupported: string[];
}

/** The parts of the (internal) mock monitor and runtime settings this engine hooks into. */
interface MockMonitorHooks {
  newUrn(parent: string, type: string, name: string): string;
  registerResource(req: RegisterResourceRequest, callback: (...args: unknown[]) => void): unknown;
}
interface RuntimeSettings {
  getMonitor(): MockMonitorHooks;
  waitForRPCs(): Promise<void>;
}

type Plan =
  | { kind: "same"; prior: StateResource; inputs: PropertyMap }
  | { kind: "create"; inputs: PropertyMap }
  | { kind: "update"; prior: StateResource; inputs: PropertyMap }
  | {
      kind: "replace";
      prior: StateResource;
      inputs: PropertyMap;
      deleteBeforeReplace: boolean;
      /** Dependants to delete first (delete-before-replace), in state order. */
      dependents: StateResource[];
      /** The old object is already gone (deleted as a dependant of another replacement). */
      alreadyDeleted: boolean;
    };

const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

/** At most `limit` tasks at once; the others wait in arrival order. */
class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}

class UpEngine {
  readonly steps: Step[] = [];
  readonly registered = new Map<string, StateResource>();
  /** Old halves of create-before-delete replacements, deleted after the program. */
  readonly replacedOlds: StateResource[] = [];
  /** Prior resources already deleted during the run (delete-before-replace). */
  readonly deletedEarly = new Set<StateResource>();
  /** URNs whose registration reached the step generator. */
  private readonly seen = new Set<string>();
  error: string | undefined;
  /** An error a preview reports at its end without stopping (a protected replacement). */
  private previewError: string | undefined;
  /** Settles at the first failure: like the language host, stop waiting for the program then. */
  readonly failed: Promise<void>;
  private signalFailure: () => void = () => undefined;
  /** Check and Diff run one registration at a time, as in the engine's step generator. */
  private generator: Promise<unknown> = Promise.resolve();
  private readonly executor: Semaphore;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly host: ProviderHost,
    private readonly prior: StackState,
    private readonly dryRun: boolean,
    parallel: number,
    private readonly packs: PolicyPackHost[] = [],
  ) {
    this.executor = new Semaphore(Math.max(1, parallel));
    this.failed = new Promise((resolve) => {
      this.signalFailure = resolve;
    });
  }

  fail(message: string): Error {
    this.error ??= message;
    this.signalFailure();
    return new Error(message);
  }

  /** Resolves once every step started so far has finished. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  register(registration: Registration, news: PropertyMap): Promise<StateResource> {
    const work = this.registerNow(registration, news);
    this.inFlight.add(work);
    work.then(
      () => this.inFlight.delete(work),
      () => this.inFlight.delete(work),
    );
    return work;
  }

  private async registerNow(registration: Registration, news: PropertyMap): Promise<StateResource> {
    const { urn } = registration;
    // Like the engine, start no new step once one has failed.
    if (this.error !== undefined) throw new Error(`${urn}: not attempted after an earlier failure`);
    try {
      if (registration.unsupported.length > 0) {
        throw new Error(
          `the small engine cannot honour the resource option(s) ${registration.unsupported.join(", ")}; ` +
            "run this program on the real Pulumi engine",
        );
      }
      const decided = this.generator.then(() => this.plan(registration, news));
      this.generator = decided.catch(() => undefined);
      const plan = await decided;
      return await this.executor.run(async () => {
        if (this.error !== undefined) throw new Error("not attempted after an earlier failure");
        return this.apply(registration, plan);
      });
    } catch (error) {
      const message = (error as Error).message;
      throw this.fail(message.startsWith(`${urn}: `) ? message : `${urn}: ${message}`);
    }
  }

  /** The step generator's part: Check, Diff and the choice of step. */
  private async plan(registration: Registration, news: PropertyMap): Promise<Plan> {
    const { urn } = registration;
    if (this.error !== undefined) throw new Error("not attempted after an earlier failure");
    this.seen.add(urn);
    const prior = this.prior.resources.find((r) => r.urn === urn);
    const recreating = prior !== undefined && this.deletedEarly.has(prior);
    const old = recreating ? undefined : prior;
    const requested = old ? applyIgnoreChanges(news, old.inputs, registration.ignoreChanges) : news;
    const checked = await this.host.check(urn, old?.inputs ?? {}, requested);
    if (checked.failures.length > 0) {
      const reasons = checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
      throw new Error(`invalid inputs: ${reasons}`);
    }
    const inputs = checked.inputs;
    await this.analyze(registration, inputs);
    if (prior && recreating) {
      return {
        kind: "replace",
        prior,
        inputs,
        deleteBeforeReplace: true,
        dependents: [],
        alreadyDeleted: true,
      };
    }
    if (!old) return { kind: "create", inputs };

    const diff = await this.host.diff(old.id, urn, old.outputs, inputs);
    const { changes, replaces } = decideDiff(diff, old.inputs, inputs, registration);
    if (!changes) return { kind: "same", prior: old, inputs };
    if (replaces.length === 0) return { kind: "update", prior: old, inputs };
    // Replacing entails a delete: refused while the resource is (and stays) protected.
    if (registration.protect && old.protect) {
      // An up stops here; a preview, like the engine's, reports the error and goes on
      // showing the rest of the plan.
      if (!this.dryRun) throw new Error(replaceProtectedMessage(urn));
      this.previewError ??= `${urn}: ${replaceProtectedMessage(urn)}`;
    }
    const deleteBeforeReplace = registration.deleteBeforeReplace ?? diff.deleteBeforeReplace;
    const dependents = deleteBeforeReplace ? await this.dependentReplacements(old) : [];
    for (const dependent of dependents) {
      if (dependent.protect) {
        throw new Error(
          `unable to replace resource ${JSON.stringify(dependent.urn)} as part of replacing ` +
            `${JSON.stringify(urn)} as it is currently marked for protection. To unprotect the ` +
            "resource, remove the `protect` flag from the resource in your Pulumi program and run " +
            `\`pulumi up\`, or use the command:\n\`pulumi state unprotect '${dependent.urn}'\``,
        );
      }
    }
    return {
      kind: "replace",
      prior: old,
      inputs,
      deleteBeforeReplace,
      dependents,
      alreadyDeleted: false,
    };
  }

  /**
   * Policy packs see each resource's checked inputs before any step, as in the engine's
   * step generator; a mandatory violation makes the resource invalid and stops the run.
   */
  private async analyze(registration: Registration, inputs: PropertyMap): Promise<void> {
    const { urn } = registration;
    const found: Diagnostic[] = [];
    for (const pack of this.packs) {
      found.push(
        ...(await pack.analyze({
          type: registration.type,
          name: urn.split("::").pop() ?? urn,
          urn,
          ...(registration.parent ? { parent: registration.parent } : {}),
          inputs,
          state: {},
          propertyDependencies: registration.propertyDependencies,
          dependencies: registration.dependencies,
        })),
      );
    }
    reportDiagnostics(found);
    if (found.some((d) => d.level === "mandatory")) {
      throw new Error(`resource ${urn} is invalid: ${describeViolations(found)}`);
    }
  }

  /** After the program: the packs' stack policies on the resources as registered. */
  async analyzeStack(): Promise<void> {
    if (this.packs.length === 0 || this.error !== undefined) return;
    const resources = [...this.registered.values()].map((r) => ({
      type: r.type,
      name: r.urn.split("::").pop() ?? r.urn,
      urn: r.urn,
      ...(r.parent ? { parent: r.parent } : {}),
      inputs: r.inputs,
      state: r.outputs,
      propertyDependencies: r.propertyDependencies ?? {},
      dependencies: r.dependencies,
    }));
    const found: Diagnostic[] = [];
    for (const pack of this.packs) found.push(...(await pack.analyzeStack(resources)));
    reportDiagnostics(found);
    if (found.some((d) => d.level === "mandatory")) {
      this.fail(`stack policy violations: ${describeViolations(found)}`);
    }
  }

  /**
   * The engine's `calculateDependentReplacements`: the dependants (transitively) of a
   * resource replaced delete-before-create that must be replaced too, found by asking
   * each one's provider to diff its inputs with the values that came from a replaced
   * resource made unknown. Resources the program already registered cannot depend on it.
   */
  private async dependentReplacements(root: StateResource): Promise<StateResource[]> {
    const replaceSet = new Set([root.urn]);
    const dependents = new Set([root.urn]);
    const result: StateResource[] = [];
    for (const candidate of this.prior.resources) {
      if (candidate === root || this.deletedEarly.has(candidate)) continue;
      if (![...dependencyUrns(candidate)].some((urn) => dependents.has(urn))) continue;
      dependents.add(candidate.urn);
      if (this.seen.has(candidate.urn)) continue;
      const inputsForDiff: PropertyMap = { ...candidate.inputs };
      let dependsOnReplaced = false;
      for (const [key, urns] of Object.entries(candidate.propertyDependencies ?? {})) {
        if (key in inputsForDiff && urns.some((urn) => replaceSet.has(urn))) {
          inputsForDiff[key] = UNKNOWN_VALUE;
          dependsOnReplaced = true;
        }
      }
      if (!dependsOnReplaced) continue;
      const diff = await this.host.diff(
        candidate.id,
        candidate.urn,
        candidate.outputs,
        inputsForDiff,
      );
      const decided = decideDiff(diff, candidate.inputs, inputsForDiff, {
        ignoreChanges: candidate.ignoreChanges ?? [],
        replaceOnChanges: candidate.replaceOnChanges ?? [],
      });
      if (decided.changes && decided.replaces.length > 0) {
        result.push(candidate);
        replaceSet.add(candidate.urn);
      }
    }
    return result;
  }

  /** The step executor's part: runs the chosen step and records it. */
  private async apply(registration: Registration, plan: Plan): Promise<StateResource> {
    const { urn } = registration;
    const entryOf = (id: string, inputs: PropertyMap, outputs: PropertyMap): StateResource => ({
      urn,
      type: registration.type,
      id,
      inputs,
      outputs,
      dependencies: registration.dependencies,
      propertyDependencies: registration.propertyDependencies,
      ...(registration.parent ? { parent: registration.parent } : {}),
      protect: registration.protect,
      retainOnDelete: registration.retainOnDelete,
      ignoreChanges: registration.ignoreChanges,
      replaceOnChanges: registration.replaceOnChanges,
    });
    const create = async (inputs: PropertyMap) =>
      this.dryRun ? { id: "", properties: inputs } : await this.host.create(urn, inputs);

    let entry: StateResource;
    switch (plan.kind) {
      case "same":
        entry = entryOf(plan.prior.id, plan.inputs, plan.prior.outputs);
        await this.step("same", urn, async () => undefined);
        break;
      case "create": {
        const created = await this.step("create", urn, () => create(plan.inputs));
        entry = entryOf(created.id, plan.inputs, created.properties);
        break;
      }
      case "update": {
        const outputs = await this.step("update", urn, async () =>
          this.dryRun
            ? plan.inputs
            : await this.host.update(plan.prior.id, urn, plan.prior.outputs, plan.inputs),
        );
        entry = entryOf(plan.prior.id, plan.inputs, outputs);
        break;
      }
      case "replace": {
        if (plan.deleteBeforeReplace) {
          // Dependants first (the engine walks them in reverse), then the resource itself.
          for (const dependent of [...plan.dependents].reverse()) {
            await this.deleteOne(dependent, true);
            this.deletedEarly.add(dependent);
          }
          if (!plan.alreadyDeleted) {
            await this.deleteOne(plan.prior, true);
            this.deletedEarly.add(plan.prior);
          }
        }
        const created = await this.step("replace", urn, () => create(plan.inputs));
        // The old half waits for the deletes after the program (create-before-delete).
        if (!plan.deleteBeforeReplace) this.replacedOlds.push(plan.prior);
        entry = entryOf(created.id, plan.inputs, created.properties);
        break;
      }
    }
    this.registered.set(urn, entry);
    return entry;
  }

  /** A delete step: protect refuses it, retainOnDelete drops it without a call, preview skips the call. */
  async deleteOne(resource: StateResource, replacing: boolean): Promise<void> {
    if (!replacing && resource.protect) throw new Error(deleteProtectedMessage(resource.urn));
    if (resource.retainOnDelete) {
      await this.step("discard", resource.urn, async () => undefined);
      return;
    }
    await this.step(replacing ? "delete-replaced" : "delete", resource.urn, async () => {
      if (!this.dryRun) await this.host.delete(resource.id, resource.urn, resource.outputs);
    });
  }

  /**
   * Records a step when it starts, as the engine's events report steps (the
   * real-engine harness reads them from `resourcePreEvent`); a step that fails is
   * taken out again, as failed steps are not reported.
   */
  private async step<T>(op: StepOp, urn: string, action: () => Promise<T>): Promise<T> {
    const step: Step = { op, urn };
    this.steps.push(step);
    try {
      return await action();
    } catch (error) {
      this.steps.splice(this.steps.indexOf(step), 1);
      throw error;
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
    const done = new Set<StateResource>();
    const condemned = [...pending, ...priorKept];
    for (const antichain of deleteSchedule(condemned)) {
      if (this.error !== undefined) break;
      await Promise.allSettled(
        antichain.map((resource) =>
          this.executor.run(async () => {
            if (this.error !== undefined) return;
            try {
              await this.deleteOne(resource, pending.includes(resource));
              done.add(resource);
            } catch (error) {
              this.fail(`${resource.urn}: ${(error as Error).message}`);
            }
          }),
        ),
      );
    }
    for (const left of condemned) {
      if (done.has(left)) continue;
      if (pending.includes(left)) state.pendingDeletes.push(left);
      else state.resources.push(left);
    }
    this.error ??= this.previewError;
    return state;
  }
}

/** Prints policy diagnostics as the engine does, one per line with its enforcement level. */
function reportDiagnostics(found: Diagnostic[]): void {
  for (const d of found) {
    console.log(`${d.level}: [${d.policyPackName}] ${d.policyName}: ${d.urn}: ${d.message}`);
  }
}

function describeViolations(found: Diagnostic[]): string {
  return found
    .filter((d) => d.level === "mandatory")
    .map((d) => `${d.policyName} (mandatory): ${d.message.split("\n")[0]}`)
    .join("; ");
}

/** Starts each pack and configures every policy at its own enforcement level, as the engine does. */
async function startPolicyPacks(dirs: string[]): Promise<PolicyPackHost[]> {
  const levels: Record<number, Diagnostic["level"]> = {
    0: "advisory",
    1: "mandatory",
    2: "disabled",
    3: "remediate",
  };
  return Promise.all(
    dirs.map(async (dir) => {
      const pack = await startPolicyPack(dir);
      const info = await pack.info();
      const config: Record<string, { enforcementLevel: Diagnostic["level"] }> = {};
      for (const policy of info.getPoliciesList()) {
        config[policy.getName()] = { enforcementLevel: levels[policy.getEnforcementlevel()] };
      }
      await pack.configure(config);
      return pack;
    }),
  );
}

/** Changes and replacement keys as the engine settles them from a provider's Diff. */
function decideDiff(
  diff: DiffResult,
  oldInputs: PropertyMap,
  newInputs: PropertyMap,
  options: { ignoreChanges: string[]; replaceOnChanges: string[] },
): { changes: boolean; replaces: string[] } {
  let changes = diff.changes === "some";
  // The dynamic provider host reports no changed keys; the engine only knows them when
  // it diffs the inputs itself (DIFF_UNKNOWN), so only then can replaceOnChanges apply.
  let changedKeys: string[] = [];
  if (diff.changes === "unknown") {
    const compared = applyIgnoreChanges(newInputs, oldInputs, options.ignoreChanges);
    const keys = new Set([...Object.keys(oldInputs), ...Object.keys(compared)]);
    changedKeys = [...keys].filter((key) => !isDeepStrictEqual(oldInputs[key], compared[key]));
    changes = changedKeys.length > 0;
  }
  const replaces = [...diff.replaces];
  if (changes) {
    for (const key of changedKeys) {
      const matched = options.replaceOnChanges.some((pattern) => {
        const segments = parsePropertyPath(pattern);
        return segments.length === 1 && (segments[0] === "*" || segments[0] === key);
      });
      if (matched && !replaces.includes(key)) replaces.push(key);
    }
  }
  return { changes, replaces };
}

/**
 * The engine's `processIgnoreChanges`: each ignored property path of the new inputs takes
 * its old value (or is removed where the old inputs have none).
 */
function applyIgnoreChanges(
  news: PropertyMap,
  olds: PropertyMap,
  ignoreChanges: string[],
): PropertyMap {
  if (ignoreChanges.length === 0) return news;
  const result = structuredClone(news);
  for (const pattern of ignoreChanges) {
    const segments = parsePropertyPath(pattern);
    let target: Record<string, unknown> = result;
    let source: Record<string, unknown> | undefined = olds;
    for (const segment of segments.slice(0, -1)) {
      const nextTarget: unknown = target[segment];
      const nextSource: unknown = source?.[segment];
      // The engine cannot ignore a change of an added or removed container either.
      if (!isContainer(nextTarget) || !isContainer(nextSource)) {
        target = {};
        source = undefined;
        break;
      }
      target = nextTarget;
      source = nextSource;
    }
    if (!source) continue;
    const last = segments[segments.length - 1];
    if (last in source) target[last] = structuredClone(source[last]);
    else delete target[last];
  }
  return result;
}

function isContainer(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** `a.b`, `a["b.c"]`, `a[0]`; wildcards other than a lone `*` are refused. */
function parsePropertyPath(pattern: string): string[] {
  const segments: string[] = [];
  const matcher = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let consumed = 0;
  for (const match of pattern.matchAll(matcher)) {
    const between = pattern.slice(consumed, match.index);
    if (between !== "" && between !== ".") throw new Error(`unsupported property path ${pattern}`);
    segments.push(match[1] ?? match[2] ?? match[3]);
    consumed = (match.index ?? 0) + match[0].length;
  }
  if (consumed !== pattern.length || segments.length === 0) {
    throw new Error(`unsupported property path ${pattern}`);
  }
  if (segments.includes("*") && !(segments.length === 1 && pattern === "*")) {
    throw new Error(`the small engine supports no wildcard in property path ${pattern}`);
  }
  return segments;
}

/** Options of a registration this engine does not implement, by their program names. */
function unsupportedOptions(req: RegisterResourceRequest): string[] {
  const found: string[] = [];
  if (req.getAliasesList().length > 0 || req.getAliasurnsList().length > 0) found.push("aliases");
  const timeouts = req.getCustomtimeouts();
  if (timeouts && (timeouts.getCreate() || timeouts.getUpdate() || timeouts.getDelete())) {
    found.push("customTimeouts");
  }
  if (req.getAdditionalsecretoutputsList().length > 0) found.push("additionalSecretOutputs");
  if (req.getDeletedwith()) found.push("deletedWith");
  if (req.getImportid()) found.push("import");
  if (req.getProvider() || req.getProvidersMap().getLength() > 0) found.push("provider");
  if (req.getReplaceWithList().length > 0) found.push("replaceWith");
  if (req.hasReplacementTrigger()) found.push("replacementTrigger");
  if (req.getHidediffsList().length > 0) found.push("hideDiffs");
  if (req.getTransformsList().length > 0) found.push("transforms");
  const hooks = req.getHooks()?.toObject();
  if (hooks && Object.values(hooks).some((list) => Array.isArray(list) && list.length > 0)) {
    found.push("hooks");
  }
  return found;
}

/** Unknown values of a dry run, as the engine sends them to providers: the sentinel string. */
function withUnknownSentinels(pulumi: typeof PulumiModule, value: unknown): unknown {
  if (pulumi.isUnknown(value)) return UNKNOWN_VALUE;
  if (Array.isArray(value)) return value.map((item) => withUnknownSentinels(pulumi, item));
  if (isContainer(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, withUnknownSentinels(pulumi, item)]),
    );
  }
  return value;
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
  let packs: PolicyPackHost[] = [];
  process.once("SIGTERM", () => {
    Promise.allSettled([host.close(), ...packs.map((pack) => pack.close())]).finally(() =>
      process.exit(1),
    );
  });
  packs = await startPolicyPacks(request.policyPacks ?? []);
  const engine = new UpEngine(host, prior, request.dryRun, request.parallel, packs);
  let result: RunResult;
  try {
    await host.configure(request.config, request.secretKeys);
    const stackOutputs = await runProgram(pulumi, request, project, engine);
    await engine.analyzeStack();
    const state = await engine.finish(stackOutputs);
    result = { state, steps: engine.steps, error: engine.error };
  } finally {
    await Promise.all([host.close(), ...packs.map((pack) => pack.close())]);
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
  // Registration failures also surface as unhandled rejections of dependants' outputs;
  // the first failure is already recorded, the rest is noise.
  process.on("unhandledRejection", (reason) => {
    // LIFECYCLE_DEBUG=1 shows where a program failure came from.
    if (process.env.LIFECYCLE_DEBUG) console.error(reason);
    engine.fail(reason instanceof Error ? reason.message : String(reason));
  });

  await pulumi.runtime.setMocks(
    {
      newResource(args) {
        if (!args.custom) {
          if (args.type === ROOT_STACK_TYPE) return { id: undefined, state: args.inputs };
          // The engine keeps components in state and reports steps for them; this one would not.
          throw engine.fail(
            `the small engine does not model component resources (${args.type} ${args.name}); run this program on the real Pulumi engine`,
          );
        }
        if (!args.type.startsWith("pulumi-nodejs:dynamic/")) {
          throw engine.fail(`the small engine runs dynamic resources only, not ${args.type}`);
        }
        const registration = registrations.get(`${args.type}::${args.name}`);
        if (!registration) throw engine.fail(`no registration seen for ${args.type} ${args.name}`);
        const news = withUnknownSentinels(pulumi, args.inputs) as PropertyMap;
        return engine
          .register(registration, news)
          .then((entry) => ({ id: entry.id, state: entry.outputs }));
      },
      call(args) {
        throw engine.fail(`the small engine supports no provider functions (${args.token})`);
      },
    },
    project.name,
    request.stack,
    request.dryRun,
  );
  pulumi.runtime.setAllConfig(request.config, request.secretKeys);

  // Name URNs as the engine does (the root stack is not part of its children's type),
  // and see each registration's options and dependencies, which the mocks API hides.
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
    const propertyDependencies: Record<string, string[]> = {};
    req.getPropertydependenciesMap().forEach((deps, key) => {
      propertyDependencies[key] = deps.getUrnsList();
    });
    const parent = req.getParent();
    const parentType = parent ? parent.split("::")[2] : "";
    registrations.set(`${req.getType()}::${req.getName()}`, {
      urn: monitor.newUrn(parent, req.getType(), req.getName()),
      type: req.getType(),
      parent: parentType === ROOT_STACK_TYPE ? "" : parent,
      dependencies: req.getDependenciesList(),
      propertyDependencies,
      protect: req.getProtect() ?? false,
      retainOnDelete: req.getRetainondelete() ?? false,
      ignoreChanges: req.getIgnorechangesList(),
      replaceOnChanges: req.getReplaceonchangesList(),
      ...(req.getDeletebeforereplacedefined()
        ? { deleteBeforeReplace: req.getDeletebeforereplace() }
        : {}),
      unsupported: unsupportedOptions(req),
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
      if (process.env.LIFECYCLE_DEBUG) console.error(error);
      engine.fail(error instanceof Error ? error.message : String(error));
    }),
    engine.failed,
  ]);
  // Steps already running finish, as in the engine after a failure.
  await engine.settle();
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
