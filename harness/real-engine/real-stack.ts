/**
 * `EngineStack` on the real Pulumi engine: the CLI driven through the Automation API's
 * `LocalWorkspace` in a project folder (the program copied from `examples/` or a
 * fixture) below the installed base, with a `file://` backend and a passphrase secrets
 * provider in a scratch folder, no update check and no plugin download. The emulator's
 * token goes in as `pulumi config set --secret irm:token`.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import * as grpc from "@grpc/grpc-js";
import {
  type EngineEvent,
  LocalWorkspace,
  PulumiCommand,
  type Stack,
} from "@pulumi/pulumi/automation";
import * as eventsService from "@pulumi/pulumi/proto/events_grpc_pb";
import type { EventRequest } from "@pulumi/pulumi/proto/events_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { REPO_ROOT } from "../installed-package";
import { editProgram } from "../program-edit";
import { describeRequest } from "../request-names";
import {
  type EngineStack,
  type EngineStackOptions,
  type RunOutcome,
  type RunSettings,
  type StateResource,
  type Step,
  type StepOp,
  stateResourceOf,
} from "../stack";
import { ensureInstalledBase, type RealEngineContext } from "./installed-base";
import { logEngineStep } from "./step-log";

/** Engine step ops as `EngineStack` reports them (logical `replace` steps are left out). */
const OPS: Record<string, StepOp | undefined> = {
  same: "same",
  create: "create",
  update: "update",
  delete: "delete",
  "create-replacement": "replace",
  "delete-replaced": "delete-replaced",
  discard: "discard",
  "discard-replaced": "discard",
};

/** The code cache the CLI's Node.js processes load (`compile-cache.cjs`). */
const COMPILE_CACHE = path.join(__dirname, "compile-cache.cjs");

const SKIPPED_TYPES = /^pulumi:(pulumi:Stack|providers:)/;

/** The key the engine marks a secret value with in state. */
const SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d";

interface StepMetadata {
  op: string;
  urn: string;
  type: string;
  old?: { retainOnDelete?: boolean };
  new?: unknown;
}

function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/**
 * Turns one run's engine events into steps: one per resource and op, in report order,
 * leaving out steps that failed. A refresh step takes the op the engine reported when
 * it finished (`update` when the object changed, `delete` when it was gone).
 */
function stepsOf(events: EngineEvent[]): Step[] {
  const steps: Step[] = [];
  const seen = new Set<string>();
  const refreshed = new Map<string, string>();
  const failed = new Set<string>();
  for (const event of events) {
    const outputs = event.resOutputsEvent?.metadata as StepMetadata | undefined;
    if (outputs) refreshed.set(outputs.urn, outputs.new ? outputs.op : "delete");
    const failure = event.resOpFailedEvent?.metadata as StepMetadata | undefined;
    if (failure) failed.add(`${failure.urn} ${failure.op}`);
  }
  for (const event of events) {
    const meta = event.resourcePreEvent?.metadata as StepMetadata | undefined;
    if (!meta || SKIPPED_TYPES.test(meta.type) || failed.has(`${meta.urn} ${meta.op}`)) continue;
    let op: StepOp | undefined;
    if (meta.op === "refresh") {
      const outcome = refreshed.get(meta.urn);
      op =
        outcome === "delete" ? "refresh-delete" : outcome === "update" ? "refresh-update" : "same";
    } else if (
      (meta.op === "delete" || meta.op === "delete-replaced") &&
      meta.old?.retainOnDelete
    ) {
      // The engine reports a retained removal as a delete; the provider is not called.
      op = "discard";
    } else {
      op = OPS[meta.op];
    }
    if (op === undefined) continue;
    const key = `${meta.urn} ${op}`;
    if (seen.has(key)) continue;
    seen.add(key);
    steps.push({ op, name: nameOf(meta.urn), type: meta.type });
  }
  return steps;
}

/**
 * Resources a refresh read back differently from the state (inputs or outputs), or
 * found gone, from the old and new state the engine's events carry for each refresh.
 */
export function refreshChangedOf(events: EngineEvent[]): string[] {
  const refreshed = new Set<string>();
  for (const event of events) {
    const meta = event.resourcePreEvent?.metadata as StepMetadata | undefined;
    if (meta?.op === "refresh") refreshed.add(meta.urn);
  }
  const changed = new Set<string>();
  for (const event of events) {
    const meta = event.resOutputsEvent?.metadata as
      | (StepMetadata & { old?: StateOf; new?: StateOf })
      | undefined;
    if (!meta || !refreshed.has(meta.urn) || SKIPPED_TYPES.test(meta.type)) continue;
    const before = meta.old && [meta.old.inputs, meta.old.outputs];
    const after = meta.new && [meta.new.inputs, meta.new.outputs];
    if (!isDeepStrictEqual(before, after)) changed.add(nameOf(meta.urn));
  }
  return [...changed];
}

interface StateOf {
  inputs?: unknown;
  outputs?: unknown;
}

/** True for an event of the preview a command ran before applying (`planning`). */
function isPlanning(event: EngineEvent): boolean {
  const payload = (event.resourcePreEvent ?? event.resOutputsEvent) as
    | { planning?: boolean }
    | undefined;
  return payload?.planning === true;
}

/**
 * Receives the engine's events over gRPC, as the CLI's `--event-log tcp://<address>`
 * sends them: one stream per operation, so the preview `pulumi up` runs first and the
 * update after it both arrive (a file event log is truncated by the second).
 */
async function startEventSink(
  onEvent: (event: EngineEvent) => void,
): Promise<{ address: string; close(): void }> {
  const server = new grpc.Server();
  server.addService(eventsService.EventsService, {
    streamEvents(
      call: grpc.ServerReadableStream<EventRequest, Empty>,
      callback: grpc.sendUnaryData<Empty>,
    ) {
      call.on("data", (request: EventRequest) => onEvent(JSON.parse(request.getEvent())));
      call.on("end", () => callback(null, new Empty()));
      call.on("error", (error) => callback(error, null));
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { address: `tcp://127.0.0.1:${port}`, close: () => server.forceShutdown() };
}

/** Runs the CLI; rejects with its output when it exits with an error. */
function runCli(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  onOutput: (text: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args, "--non-interactive"], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      onOutput(chunk.toString());
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject({ message: `pulumi ${args[0]} exited with code ${code}\n${stdout}`, stderr });
    });
  });
}

/** Logs one run (`IRM_ENGINE_STEP_LOG`, step-log.ts) with the settings it was given. */
function logStep(stack: string, kind: string, settings: RunSettings, ms: number): void {
  const flags = Object.keys(settings).filter((k) => settings[k as keyof RunSettings] !== undefined);
  logEngineStep(stack, kind, flags, ms);
}

function errorText(error: unknown): string {
  const e = error as { stderr?: string; stdout?: string; message?: string };
  const text = [e.stderr, e.message].filter(Boolean).join("\n");
  return text || String(error);
}

/** Every file below `dir`, concatenated (state, backups, history, config). */
function readTree(dir: string): string {
  let text = "";
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += fs.readFileSync(path.join(entry.parentPath, entry.name), "latin1");
  }
  return text;
}

/**
 * One `PulumiCommand` per CLI root for the whole worker: `PulumiCommand.get` runs
 * `pulumi version` (a quarter of a second of CPU), and the CLI does not change mid-run.
 */
const commands = new Map<string, Promise<PulumiCommand>>();

function pulumiCommandFor(root: string): Promise<PulumiCommand> {
  let command = commands.get(root);
  if (!command) {
    command = PulumiCommand.get({ root });
    commands.set(root, command);
    command.catch(() => commands.delete(root));
  }
  return command;
}

export async function createRealEngineStack(
  context: RealEngineContext,
  options: EngineStackOptions,
): Promise<EngineStack> {
  const { emulator } = options;
  await ensureInstalledBase(context.base);
  const programDir = path.isAbsolute(options.program)
    ? options.program
    : path.join(REPO_ROOT, "examples", options.program);
  const dir = fs.mkdtempSync(path.join(context.base, `${options.name}-`));
  const skipped = new Set(["node_modules", "package-lock.json", "bin", ".pulumi"]);
  fs.cpSync(programDir, dir, {
    recursive: true,
    filter: (source) => source === programDir || !skipped.has(path.basename(source)),
  });
  // The base folder's node_modules serves the program; a copied manifest would not.
  fs.rmSync(path.join(dir, "package.json"), { force: true });
  const scratch = fs.mkdtempSync(path.join(context.base, `${options.name}-engine-`));
  const backend = path.join(scratch, "backend");
  const home = path.join(scratch, "home");
  fs.mkdirSync(backend);
  fs.mkdirSync(home);

  const pulumiCommand = await pulumiCommandFor(context.cliRoot);
  const bin = path.join(context.cliRoot, "bin");
  const envVars: Record<string, string> = {
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "irm-tests",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_HOME: home,
    // Examples are type-checked by their own test; here the program only has to run.
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    // Test-run tuning of the processes the CLI starts, which changes nothing they do
    // (docs/real-engine.md): Node.js reuses V8's compiled code across them, and the Go
    // CLI collects garbage less often.
    IRM_COMPILE_CACHE_DIR: path.join(context.base, ".compile-cache"),
    GOGC: process.env.GOGC ?? "400",
    ...options.env,
    // A test's own Node.js options go with the cache's, not instead of them.
    NODE_OPTIONS: [
      process.env.NODE_OPTIONS,
      options.env?.NODE_OPTIONS,
      `--require ${JSON.stringify(COMPILE_CACHE)}`,
    ]
      .filter(Boolean)
      .join(" "),
  };
  // The backend is new, so the stack is too: no `stack select` that fails first.
  const stack: Stack = await LocalWorkspace.createStack(
    { stackName: "dev", workDir: dir },
    { pulumiCommand, envVars, pulumiHome: home },
  );
  const projectName = (await stack.workspace.projectSettings()).name;
  const config: Record<string, { value: string; secret?: boolean }> = {
    "irm:apiUrl": { value: emulator.url },
  };
  if (!options.tokenFromEnv) config["irm:token"] = { value: emulator.token, secret: true };
  for (const [key, value] of Object.entries(options.projectConfig ?? {})) {
    config[`${projectName}:${key}`] = { value };
  }
  await stack.setAllConfig(config);

  const names = new Map<string, string>([[emulator.rootGroupUid, "ROOT"]]);
  let lastResources: StateResource[] = [];

  const stateFile = path.join(backend, ".pulumi", "stacks", projectName, "dev.json");

  /**
   * The checkpoint file's text at the last `stack export`, and the resources that export
   * gave (secrets decrypted), as JSON: a checkpoint read again before any other engine
   * run (the state before a run is the state after the last one) needs no second export.
   */
  let decrypted: { checkpoint: string; resources: string } | undefined;
  /** The same for the stack's outputs (`pulumi stack output --show-secrets`). */
  let decryptedOutputs: { checkpoint: string; outputs: string } | undefined;

  /**
   * The stack's resources as `pulumi stack export --show-secrets` prints them: read from
   * the file backend's checkpoint, which holds the same, without a CLI run and the
   * passphrase's key derivation (about half a second each, twice per step). Only when a
   * resource wanted holds a secret (the engine's provider resources always do: the
   * stack's config) does it go through the CLI, which decrypts it; so does a stack with
   * no checkpoint yet.
   */
  async function checkpointResources(
    wanted: (type: string) => boolean,
  ): Promise<Array<Record<string, unknown>>> {
    const text = fs.existsSync(stateFile) ? fs.readFileSync(stateFile, "utf8") : undefined;
    if (text !== undefined) {
      const file = JSON.parse(text) as {
        checkpoint?: { latest?: { resources?: Array<Record<string, unknown>> } };
      };
      const list = (file.checkpoint?.latest?.resources ?? []).filter((r) => wanted(String(r.type)));
      if (!JSON.stringify(list).includes(SECRET_SIGNATURE)) return list;
      // The same checkpoint as the last export decrypted (nothing ran since): its resources.
      if (decrypted?.checkpoint === text) {
        return (JSON.parse(decrypted.resources) as Array<Record<string, unknown>>).filter((r) =>
          wanted(String(r.type)),
        );
      }
    }
    const deployment = (await stack.exportStack()).deployment as {
      resources?: Array<Record<string, unknown>>;
    };
    const all = deployment.resources ?? [];
    if (text !== undefined) decrypted = { checkpoint: text, resources: JSON.stringify(all) };
    return all.filter((r) => wanted(String(r.type)));
  }

  async function resources(): Promise<StateResource[]> {
    const list = (await checkpointResources((type) => !SKIPPED_TYPES.test(type))).map(
      stateResourceOf,
    );
    for (const r of list) if (r.id) names.set(r.id, `<${r.name}>`);
    lastResources = list;
    return list;
  }

  async function run(
    kind: "preview" | "up" | "refresh" | "destroy",
    settings: RunSettings = {},
  ): Promise<RunOutcome> {
    const started = Date.now();
    await resources();
    await emulator.clearRequests();
    const events: EngineEvent[] = [];
    let output = "";
    const common = {
      onEvent: (event: EngineEvent) => events.push(event),
      onOutput: (text: string) => {
        output += text;
      },
      color: "never" as const,
      ...(settings.parallel !== undefined ? { parallel: settings.parallel } : {}),
    };
    let error: string | undefined;
    try {
      if (kind === "preview") {
        await stack.preview({
          ...common,
          expectNoChanges: settings.expectNoChanges,
          policyPacks: settings.policyPacks,
          refresh: settings.refresh,
        });
      } else {
        await runApplying(kind, settings, common.onEvent, common.onOutput);
      }
    } catch (caught) {
      error = errorText(caught);
    }
    await resources();
    logStep(options.name, kind, settings, Date.now() - started);
    // `up`, `refresh` and `destroy` preview first, as users run them: those events are
    // the plan; the others are what the command did.
    const steps = stepsOf(kind === "preview" ? events : events.filter((e) => !isPlanning(e)));
    const planned =
      kind === "preview" || settings.skipPreview ? undefined : stepsOf(events.filter(isPlanning));
    // Every event as the engine sent it: diagnostics, policy reports, step metadata.
    for (const event of events) output += `${JSON.stringify(event)}\n`;
    return {
      steps,
      changes: steps.filter((s) => s.op !== "same"),
      refreshChanged: refreshChangedOf(
        kind === "preview" ? events : events.filter((e) => !isPlanning(e)),
      ),
      ...(planned ? { planned: planned.filter((s) => s.op !== "same") } : {}),
      error,
      output,
    };
  }

  /**
   * `pulumi up|refresh|destroy --yes` as a user or a pipeline runs it: the CLI previews
   * first and applies only when the preview succeeds. (The Automation API's own methods
   * pass `--skip-preview`, which hides a preview that does not say what the run does.)
   */
  async function runApplying(
    kind: "up" | "refresh" | "destroy",
    settings: RunSettings,
    onEvent: (event: EngineEvent) => void,
    onOutput: (text: string) => void,
  ): Promise<void> {
    const sink = await startEventSink(onEvent);
    const args = [kind, "--yes", "--stack", "dev", "--color", "never"];
    if (settings.expectNoChanges) args.push("--expect-no-changes");
    if (settings.skipPreview) args.push("--skip-preview");
    if (settings.refresh && kind === "up") args.push("--refresh");
    if (settings.parallel !== undefined) args.push("--parallel", String(settings.parallel));
    for (const pack of kind === "up" ? (settings.policyPacks ?? []) : []) {
      args.push("--policy-pack", pack);
    }
    args.push("--event-log", sink.address);
    try {
      // The CLI offers --event-log only with PULUMI_DEBUG_COMMANDS, as the Automation API sets it.
      const env = { ...process.env, ...envVars, PULUMI_DEBUG_COMMANDS: "true" };
      await runCli(path.join(bin, "pulumi"), args, dir, env, onOutput);
    } finally {
      sink.close();
    }
  }

  return {
    engine: "real",
    dir,
    cli: { path: path.join(bin, "pulumi"), env: { ...process.env, ...envVars } },
    preview: (settings) => run("preview", settings),
    up: (settings) => run("up", settings),
    refresh: (settings) => run("refresh", settings),
    destroy: (settings) => run("destroy", settings),
    resources,
    async outputs() {
      const [root] = await checkpointResources((type) => type === "pulumi:pulumi:Stack");
      const text = JSON.stringify(root?.outputs ?? {});
      if (!text.includes(SECRET_SIGNATURE)) return JSON.parse(text) as Record<string, unknown>;
      // Decrypted by the CLI once per checkpoint, as `decrypted` above.
      const checkpoint = fs.readFileSync(stateFile, "utf8");
      if (decryptedOutputs?.checkpoint !== checkpoint) {
        const outputs = await stack.outputs();
        const values = Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, v.value]));
        decryptedOutputs = { checkpoint, outputs: JSON.stringify(values) };
      }
      return JSON.parse(decryptedOutputs.outputs) as Record<string, unknown>;
    },
    editProgram(before, after) {
      editProgram(dir, before, after);
    },
    async setConfig(key, value, secret = false) {
      const name = key.includes(":") ? key : `${projectName}:${key}`;
      if (secret) {
        await stack.setConfig(name, { value, secret });
        return;
      }
      // A plain value is written into the stack's settings file as `pulumi config set`
      // writes it, without a CLI run that derives the passphrase's key for nothing.
      const settings = await stack.workspace.stackSettings("dev");
      settings.config = { ...settings.config, [name]: value };
      await stack.workspace.saveStackSettings("dev", settings);
    },
    async takeRequests() {
      const entries = await emulator.requests();
      await emulator.clearRequests();
      return entries.map((entry) => describeRequest(entry, names));
    },
    uidOf(name) {
      const resource = lastResources.find((r) => r.name === name);
      if (!resource) throw new Error(`no resource named ${name} in state`);
      return resource.id;
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(scratch, { recursive: true, force: true });
    },
    persistedText() {
      // State, backups and history (backend), logs and workspace files (home), and the
      // stack's config file, where the secret must only appear encrypted.
      return [readTree(backend), readTree(home), readTree(dir)].join("\n");
    },
  };
}
