/**
 * `EngineStack` (harness/stack.ts) on the small in-repo engine, for machines where
 * the Pulumi CLI cannot be provided. It reports what the real engine reports: one step
 * per resource event (`replace` plus `delete-replaced` for a replacement, `discard` for
 * a retained removal), names as the last URN segment, parallel steps by default
 * (`defaultParallel()`), `--expect-no-changes` failing the run after it ran.
 *
 * The project folder is a copy of the program under `.tmp/`; when the program uses this
 * package, it is installed there as users install it (`createConsumerProject`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createConsumerProject, REPO_ROOT, scratchDir } from "../installed-package";
import { editProgram } from "../program-edit";
import { describeRequest } from "../request-names";
import type {
  EngineStack,
  EngineStackOptions,
  StateResource as EngineStateResource,
  Step as EngineStep,
  RunOutcome,
  RunSettings,
} from "../stack";
import {
  defaultParallel,
  destroy,
  newStack,
  preview,
  type RunOptions,
  type RunResult,
  refresh,
  type StackState,
  up,
} from "./engine";

export function createSmallEngineStack(options: EngineStackOptions): EngineStack {
  const { emulator } = options;
  const programDir = path.isAbsolute(options.program)
    ? options.program
    : path.join(REPO_ROOT, "examples", options.program);
  const dir = prepareProject(options.name, programDir);
  let state = newStack(dir);
  const projectName = state.project;

  const config: Record<string, string> = {
    "irm:apiUrl": emulator.url,
    "irm:token": emulator.token,
  };
  const secretKeys = new Set(["irm:token"]);
  const qualify = (key: string) => (key.includes(":") ? key : `${projectName}:${key}`);
  for (const [key, value] of Object.entries(options.projectConfig ?? {})) {
    config[qualify(key)] = value;
  }

  // Every uid ever seen, by resource name, so old halves of replacements read well too.
  const names = new Map<string, string>([[emulator.rootGroupUid, "ROOT"]]);
  const remember = (known: StackState) => {
    for (const resource of [...known.resources, ...known.pendingDeletes]) {
      if (resource.id) names.set(resource.id, `<${nameOf(resource.urn)}>`);
    }
  };

  const runOptions = (settings: RunSettings = {}): RunOptions => {
    const env = { ...process.env, ...options.env };
    return {
      config: { ...config },
      secretKeys: [...secretKeys],
      env: options.env,
      parallel: settings.parallel ?? defaultParallel(env),
      expectNoChanges: settings.expectNoChanges,
      // Relative pack folders are taken from the project folder (where the package is installed).
      policyPacks: settings.policyPacks,
    };
  };

  const run = async (
    operation: string,
    settings: RunSettings | undefined,
    action: (options: RunOptions) => Promise<RunResult & { log?: string }>,
  ): Promise<RunOutcome> => {
    const chosen = runOptions(settings);
    await emulator.clearRequests();
    remember(state);
    let result: RunResult & { log?: string };
    try {
      result = await action(chosen);
    } catch (error) {
      const message = (error as Error).message;
      return { changes: [], steps: [], error: message, output: message };
    }
    state = result.state;
    remember(state);
    const steps: EngineStep[] = result.steps.map((step) => ({
      op: step.op,
      name: nameOf(step.urn),
      type: typeOf(step.urn),
    }));
    const lines = [
      `small engine: ${operation} (parallel ${chosen.parallel})`,
      ...result.steps.map((step) => `${step.op} ${step.urn}`),
      ...(result.error ? [`error: ${result.error}`] : []),
      ...(result.log ? [result.log] : []),
    ];
    return {
      changes: steps.filter((step) => step.op !== "same"),
      steps,
      ...(result.error !== undefined ? { error: result.error } : {}),
      output: lines.join("\n"),
    };
  };

  return {
    engine: "small",
    dir,
    preview: (settings) => run("preview", settings, (o) => preview(dir, state, o)),
    up: (settings) => run("up", settings, (o) => up(dir, state, o)),
    refresh: (settings) => run("refresh", settings, (o) => refresh(dir, state, o)),
    destroy: (settings) => run("destroy", settings, (o) => destroy(dir, state, o)),
    async resources() {
      const toContract = (resource: StackState["resources"][number]): EngineStateResource => ({
        urn: resource.urn,
        name: nameOf(resource.urn),
        type: resource.type,
        id: resource.id,
        inputs: resource.inputs,
        outputs: resource.outputs,
        protect: resource.protect ?? false,
        retainOnDelete: resource.retainOnDelete ?? false,
        dependencies: resource.dependencies,
      });
      // As `stack export`: old halves still waiting for their delete are listed too.
      return [...state.resources, ...state.pendingDeletes].map(toContract);
    },
    async outputs() {
      return { ...state.outputs };
    },
    editProgram(before, after) {
      editProgram(dir, before, after);
    },
    async setConfig(key, value, secret = false) {
      config[qualify(key)] = value;
      if (secret) secretKeys.add(qualify(key));
      else secretKeys.delete(qualify(key));
    },
    async takeRequests() {
      const entries = await emulator.requests();
      await emulator.clearRequests();
      return entries.map((entry) => describeRequest(entry, names));
    },
    uidOf(name) {
      const resource = state.resources.find((r) => nameOf(r.urn) === name);
      if (!resource) throw new Error(`no resource named ${name} in state`);
      return resource.id;
    },
    persistedText() {
      // The small engine keeps its checkpoint in memory: that and the program folder.
      return [JSON.stringify(state), readTree(dir)].join("\n");
    },
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every text file under `dir` except installed packages, concatenated. */
function readTree(dir: string): string {
  const parts: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) parts.push(readTree(full));
    else if (entry.isFile()) parts.push(fs.readFileSync(full, "utf8"));
  }
  return parts.join("\n");
}

/** The resource name: the last URN segment. */
function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

/** The type token: the last `$`-separated part of the URN's qualified type. */
function typeOf(urn: string): string {
  const qualified = urn.split("::")[2] ?? "";
  return qualified.split("$").pop() ?? qualified;
}

/**
 * Copies the program to `.tmp/<name>-<pid>/`. A program that uses this package gets it
 * installed from what `npm pack` ships; one that does not (the toy program) gets a plain
 * copy, which still resolves `@pulumi/pulumi` from the repository's `node_modules`.
 */
function prepareProject(name: string, programDir: string): string {
  const packageName = (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { name: string }
  ).name;
  const usesPackage = fs
    .readdirSync(programDir)
    .filter((file) => /\.(ts|js)$/.test(file))
    .some((file) => fs.readFileSync(path.join(programDir, file), "utf8").includes(packageName));
  if (usesPackage) return createConsumerProject({ name, programDir }).dir;
  const dir = scratchDir(name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.cpSync(programDir, dir, {
    recursive: true,
    filter: (source) =>
      source === programDir || !["node_modules", ".pulumi", "bin"].includes(path.basename(source)),
  });
  return dir;
}
