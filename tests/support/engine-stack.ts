/**
 * The lifecycle scenarios' entry point: a stack on the real Pulumi engine, which the
 * global setup found (`npm run pulumi:install` provides it; CI requires it). Files that
 * deploy run under `describeOnEngine`, so a machine without the CLI skips them (the
 * global setup says so in one line) instead of failing each one.
 */
import { describe, expect, inject } from "vitest";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import { writesOf } from "../../harness/request-names";
import type { EngineStack, EngineStackOptions, RunOutcome } from "../../harness/stack";

export type { EngineStack, EngineStackOptions, RunOutcome, Step } from "../../harness/stack";

/**
 * Throws unless the file runs in the engine tier: a file of the fast tier (no engine,
 * vitest.config.ts) that asks for the engine fails loudly rather than skipping.
 */
export function requireEngineTier(): void {
  if (inject("tier") !== "engine") {
    throw new Error(
      "this file runs in the fast tier, which has no Pulumi engine: a test that deploys belongs under tests/engine/ (tests/README.md)",
    );
  }
}

/** Whether this run has the real engine (only asked in the engine tier). */
export function hasRealEngine(): boolean {
  requireEngineTier();
  return inject("realEngine").cliRoot !== "";
}

/** `describe`, skipped when this run has no Pulumi CLI; refused in the fast tier. */
export const describeOnEngine = ((...args: Parameters<(typeof describe)["skip"]>) =>
  describe.runIf(hasRealEngine())(...args)) as (typeof describe)["skip"];

export async function createEngineStack(options: EngineStackOptions): Promise<EngineStack> {
  requireEngineTier();
  const context = inject("realEngine");
  if (context.cliRoot === "") {
    throw new Error(
      "no Pulumi CLI in this run (npm run pulumi:install provides one): engine scenarios belong under describeOnEngine",
    );
  }
  return createRealEngineStack(context, options);
}

/**
 * The stack has converged: `pulumi preview --refresh --expect-no-changes`, as a pipeline
 * checks for drift, reads every object back and plans against what it read, and finds
 * nothing to do (no refresh that would change or drop an object, even one the engine
 * calls `same` because only outputs moved; no step of the program's), sending no
 * write. One engine run does both.
 */
export async function expectConverged(stack: EngineStack): Promise<RunOutcome> {
  const preview = await stack.preview({ refresh: true, expectNoChanges: true });
  expect(preview.error).toBeUndefined();
  expect(preview.changes).toEqual([]);
  // The engine reports `same` for a refresh that moved only outputs; a refresh would
  // have written them.
  expect(preview.refreshChanged).toEqual([]);
  expect(writesOf(await stack.takeRequests())).toEqual([]);
  return preview;
}
