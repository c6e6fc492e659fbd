/**
 * Equipment of the export tests: generate a project from the emulator's organisation,
 * type-check it against the package installed as users install it, and state what a
 * deploy (on the real engine, or through the provider host) must and must not send.
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
import { IrmClient, isNotFound } from "../../sdk/index";
import type { EngineStack, RunOutcome } from "./engine-stack";

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

export interface ExportedProject {
  result: ExportResult;
  /** The generated project with the package installed as users install it. */
  project: ConsumerProject;
}

/** Exports into a scratch consumer project with the installed package (type-checkable). */
export async function createExportedProject(
  emulator: TestEmulator,
  name: string,
  options: Omit<ExportOptions, "outDir" | "settings" | "client"> = {},
): Promise<ExportedProject> {
  const generated = scratchDir(`${name}-generated`);
  fs.rmSync(generated, { recursive: true, force: true });
  const result = await generateProject(emulator, generated, options);
  const project = createConsumerProject({ name, programDir: generated });
  fs.rmSync(generated, { recursive: true, force: true });
  return { result, project };
}

/** Ids in the stack's state, sorted. */
export async function stateIds(stack: EngineStack): Promise<string[]> {
  return (await stack.resources()).map((r) => r.id).sort();
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

/**
 * `tsc --noEmit` once over several generated projects (name → the export's files), each
 * in its own folder of one consumer project with the package installed as users install
 * it, under the tsconfig.json the exporter writes for every project (checked to be the
 * same for all, its `files` taken from each folder). Loading the package's and Pulumi's
 * declarations is most of a compiler run, so one run checks them all for the cost of
 * one. The compiler's output names each error's file, so its project.
 */
export async function typeCheckTogether(
  name: string,
  projects: Record<string, Record<string, string>>,
): Promise<{ ok: boolean; output: string }> {
  const tsconfigs = new Set(Object.values(projects).map((files) => files["tsconfig.json"]));
  if (tsconfigs.size !== 1) {
    throw new Error("the generated projects' tsconfig.json differ: type-check each on its own");
  }
  const tsconfig = JSON.parse([...tsconfigs][0]) as { files: string[] };
  const files: Record<string, string> = {};
  for (const [folder, generated] of Object.entries(projects)) {
    for (const file of tsconfig.files) {
      if (generated[file] === undefined) throw new Error(`${folder} has no ${file}`);
      files[`${folder}/${file}`] = generated[file];
    }
  }
  tsconfig.files = Object.keys(files);
  files["tsconfig.json"] = `${JSON.stringify(tsconfig, null, 2)}\n`;
  const project = createConsumerProject({ name, files });
  try {
    return await typeCheck(project.dir);
  } finally {
    project.remove();
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
 * = the group's), the custom roles of the root and below, repos and event subscriptions. Not group invites, and
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
    const [groups, identities, bindings, providers, mappings, associations, roles, repos, hooks] =
      await Promise.all([
        client.iam.groups.list(below).all(),
        client.iam.identities.list(below).all(),
        client.iam.roleBindings.list(below).all(),
        client.iam.identityProviders.list(below).all(),
        client.iam.externalGroupRoleMappings.list(below).all(),
        client.iam.accountAssociations.list(below).all(),
        client.iam.roles.list().all(),
        client.registry.repos.list(below).all(),
        client.events.subscriptions.list(below).all(),
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
      ...mappings,
      ...associations,
      ...(own ? [own] : []),
      ...custom,
      ...repos,
      ...hooks,
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

/** Steps that are not "same", as `op name`. */
export function changes(result: RunOutcome): string[] {
  return result.changes.map((s) => `${s.op} ${s.name}`);
}
