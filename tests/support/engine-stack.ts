/**
 * The lifecycle scenarios' entry point: a stack on the real Pulumi engine wherever the
 * global setup found the CLI, else on the small in-repo engine.
 */
import { inject } from "vitest";
import { createSmallEngineStack } from "../../harness/lifecycle/small-engine-stack";
import { createRealEngineStack } from "../../harness/real-engine/real-stack";
import type { EngineStack, EngineStackOptions } from "../../harness/stack";

export type { EngineStack, EngineStackOptions, RunOutcome, Step } from "../../harness/stack";

/** Whether this run has the real engine. */
export function hasRealEngine(): boolean {
  return inject("realEngine").cliRoot !== "";
}

export async function createEngineStack(options: EngineStackOptions): Promise<EngineStack> {
  const context = inject("realEngine");
  if (context.cliRoot !== "") return createRealEngineStack(context, options);
  return createSmallEngineStack(options);
}
