/**
 * Equipment of the export tests, kept reusable for the real-engine suite: generate a
 * project from the emulator's organisation into a consumer project (the package
 * installed as users install it), type-check it, deploy it with the mini engine, and
 * state what a deploy must and must not send.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { promisify } from "node:util";
import { type ExportOptions, type ExportResult, exportOrganisation } from "../../exporter/index";
import type { LogEntry, TestEmulator } from "../../harness/emulator";
import {
  type ConsumerProject,
  createConsumerProject,
  REPO_ROOT,
  scratchDir,
} from "../../harness/installed-package";
import {
  newStack,
  type RunOptions,
  type StackState,
  type UpResult,
  up,
} from "../../harness/lifecycle/engine";
import { IrmClient, isNotFound } from "../../sdk/index";

const run = promisify(execFile);
const repoRequire = createRequire(path.join(REPO_ROOT, "package.json"));

/**
 * Writes the export of `emulator`'s organisation (or `options.groupUid`'s subtree)
 * straight into a folder, as `irm-export --out <dir>` does. The folder is a complete
 * Pulumi project; run it with `npm install && pulumi up` (docs/export.md).
 */
export async function generateProject(
  emulator: TestEmulator,
  outDir: string,
  options: Omit<ExportOptions, "outDir" | "settings" | "client"> = {},
): Promise<ExportResult> {
  return exportOrganisation({
    ...options,
    outDir,
    settings: { baseUrl: emulator.url, token: emulator.token, retry: { retries: 0 } },
  });
}

export interface ExportedStack {
  project: ConsumerProject;
  result: ExportResult;
  state: StackState;
  up(): Promise<UpResult>;
  /** Replaces `before` (exactly one occurrence) in the generated index.ts. */
  editProgram(before: string, after: string): void;
}

/**
 * Exports into a scratch consumer project with the installed package, ready for `up`.
 * `clientSecrets` (identity provider uid → secret) are set as the user would set them,
 * `pulumi config set --secret <key>` under the key the export names.
 */
export async function createExportedStack(
  emulator: TestEmulator,
  name: string,
  options: Omit<ExportOptions, "outDir" | "settings" | "client"> & {
    clientSecrets?: Record<string, string>;
  } = {},
): Promise<ExportedStack> {
  const generated = scratchDir(`${name}-generated`);
  fs.rmSync(generated, { recursive: true, force: true });
  const { clientSecrets = {}, ...exportOptions } = options;
  const result = await generateProject(emulator, generated, exportOptions);
  const project = createConsumerProject({ name, programDir: generated });
  fs.rmSync(generated, { recursive: true, force: true });
  const state = newStack(project.dir);
  const secrets: Record<string, string> = {};
  for (const secret of result.clientSecrets) {
    const value = clientSecrets[secret.uid];
    if (value !== undefined) secrets[`${state.project}:${secret.configKey}`] = value;
  }
  const runOptions: RunOptions = {
    config: { "irm:apiUrl": emulator.url, "irm:token": emulator.token, ...secrets },
    secretKeys: ["irm:token", ...Object.keys(secrets)],
    timeoutMs: 300_000,
  };
  const stack: ExportedStack = {
    project,
    result,
    state,
    async up() {
      await emulator.clearRequests();
      const outcome = await up(project.dir, stack.state, runOptions);
      stack.state = outcome.state;
      return outcome;
    },
    editProgram(before, after) {
      const file = path.join(project.dir, "index.ts");
      const source = fs.readFileSync(file, "utf8");
      const count = source.split(before).length - 1;
      if (count !== 1) throw new Error(`editProgram: expected one ${before}, found ${count}`);
      fs.writeFileSync(file, source.replace(before, after));
    },
  };
  return stack;
}

/** `tsc --noEmit` on the project, against the installed package; answers the compiler's output. */
export async function typeCheck(projectDir: string): Promise<{ ok: boolean; output: string }> {
  const tsc = repoRequire.resolve("typescript/bin/tsc");
  try {
    await run(process.execPath, [tsc, "-p", path.join(projectDir, "tsconfig.json"), "--noEmit"], {
      cwd: projectDir,
    });
    return { ok: true, output: "" };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ""}${failure.stderr ?? ""}` };
  }
}

/** The text Biome (this repository's biome.json) makes of a TypeScript source. */
export async function biomeFormat(source: string): Promise<string> {
  const biome = path.join(REPO_ROOT, "node_modules", ".bin", "biome");
  return new Promise((resolve, reject) => {
    const child = execFile(
      biome,
      ["format", "--stdin-file-path=exporter/generated-index.ts"],
      { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
    child.stdin?.end(source);
  });
}

/**
 * Every object an export declares below the root, by uid: groups, identities, role
 * bindings, identity providers, the root's and every group's account association (uid
 * = the group's), and the custom roles of the root and below. Not group invites, and
 * not the identity the emulator's token acts as nor its bindings, which an export
 * leaves out unless `includeSelf` (then pass `{ includeSelf: true }`).
 */
export async function liveUids(
  emulator: TestEmulator,
  options: { includeSelf?: boolean } = {},
): Promise<string[]> {
  const client = new IrmClient({ baseUrl: emulator.url, token: emulator.token });
  try {
    const self = options.includeSelf ? undefined : await client.tokenSubject();
    const root = emulator.rootGroupUid;
    const below = { descendantsOf: root };
    const [groups, identities, bindings, providers, associations, roles] = await Promise.all([
      client.iam.groups.list(below).all(),
      client.iam.identities.list(below).all(),
      client.iam.roleBindings.list(below).all(),
      client.iam.identityProviders.list(below).all(),
      client.iam.accountAssociations.list(below).all(),
      client.iam.roles.list().all(),
    ]);
    const own = await client.iam.accountAssociations.get(root).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    // A custom role's uid is a child of its group's; a built-in role's has no `/`.
    const custom = roles.filter((r) => r.uid.startsWith(`${root}/`));
    return [
      ...groups,
      ...identities,
      ...bindings,
      ...providers,
      ...associations,
      ...(own ? [own] : []),
      ...custom,
    ]
      .filter((o) => o.uid !== self && !("identity" in o && o.identity.uid === self))
      .map((o) => o.uid)
      .sort();
  } finally {
    await client.close();
  }
}

/** Requests of a run that change something (anything but GET). */
export function writes(entries: LogEntry[]): string[] {
  return entries
    .filter((entry) => entry.method !== "GET")
    .map((entry) => `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ""}`);
}

/** Ids in the stack's state, sorted. */
export function stateIds(state: StackState): string[] {
  return state.resources.map((r) => r.id).sort();
}

/** Steps that are not "same", as `op name`. */
export function changes(result: UpResult): string[] {
  return result.steps
    .filter((s) => s.op !== "same")
    .map((s) => `${s.op} ${s.urn.split("::").pop()}`);
}
