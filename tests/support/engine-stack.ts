/**
 * The lifecycle scenarios' entry point: a stack on the real Pulumi engine, which the
 * global setup found (`npm run pulumi:install` provides it; CI requires it). Files that
 * deploy run under `describeOnEngine`, so a machine without the CLI skips them (the
 * global setup says so in one line) instead of failing each one.
 */
import { describe, inject } from "vitest";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import type { EngineStack, EngineStackOptions } from "../../harness/stack";

export type { EngineStack, EngineStackOptions, RunOutcome, Step } from "../../harness/stack";

/** Whether this run has the real engine. */
export function hasRealEngine(): boolean {
  return inject("realEngine").cliRoot !== "";
}

/** `describe`, skipped when this run has no Pulumi CLI. */
export const describeOnEngine: (typeof describe)["skip"] = describe.runIf(hasRealEngine());

export async function createEngineStack(options: EngineStackOptions): Promise<EngineStack> {
  const context = inject("realEngine");
  if (context.cliRoot === "") {
    throw new Error(
      "no Pulumi CLI in this run (npm run pulumi:install provides one): engine scenarios belong under describeOnEngine",
    );
  }
  return createRealEngineStack(context, options);
}
