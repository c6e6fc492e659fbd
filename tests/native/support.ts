/**
 * What the native plugin's engine tests share: a stack of the YAML org-hierarchy example
 * (`examples/org-hierarchy-yaml`) whose plugin path names the installed package's
 * plugin folder, and the program's edits (its `Pulumi.yaml`).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import type { TestEmulator } from "../../harness/emulator";
import { REPO_ROOT } from "../../harness/installed-package";
import type { EngineStack } from "../../harness/stack";
import { createEngineStack } from "../support/engine-stack";

export const YAML_EXAMPLE = path.join(REPO_ROOT, "examples", "org-hierarchy-yaml");

/** The example's plugin path, as a user's project (the package installed in it) writes it. */
const USER_PLUGIN_PATH = "./node_modules/pulumi-irm/plugin";

/**
 * The stack's project file, with the plugin path naming the installed copy (project
 * folders sit beside the installed base's `node_modules`).
 */
export function projectFile(stack: EngineStack): string {
  return path.join(stack.dir, "Pulumi.yaml");
}

/** Replaces `before` (exactly once) in the stack's `Pulumi.yaml`. */
export function editYaml(stack: EngineStack, before: string, after: string): void {
  const file = projectFile(stack);
  const text = fs.readFileSync(file, "utf8");
  if (text.split(before).length !== 2) throw new Error(`${before} is not in ${file} once`);
  fs.writeFileSync(file, text.replace(before, after));
}

/** Points a project file copied below the installed base at the installed plugin. */
export function useInstalledPlugin(stack: EngineStack): void {
  editYaml(stack, USER_PLUGIN_PATH, "../node_modules/pulumi-irm/plugin");
}

/** A stack of the YAML example on the real engine, against `emulator`. */
export async function createYamlStack(name: string, emulator: TestEmulator): Promise<EngineStack> {
  const stack = await createEngineStack({
    name,
    program: YAML_EXAMPLE,
    emulator,
    projectConfig: { rootGroupUid: emulator.rootGroupUid },
    env: { IRM_DELETE_TIMEOUT_MS: "300" },
  });
  useInstalledPlugin(stack);
  return stack;
}

/** Runs the stack's `pulumi` with `args` in its folder; resolves with stdout and stderr. */
export async function runCli(
  stack: EngineStack,
  args: string[],
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(stack.cli.path, args, {
    cwd: stack.dir,
    env: stack.cli.env,
    maxBuffer: 16 * 1024 * 1024,
  });
}
