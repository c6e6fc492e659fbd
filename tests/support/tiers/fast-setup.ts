/**
 * vitest global setup of the fast tier (`npm run test:fast`): no Pulumi CLI is looked
 * for and none is offered. The engine entry points in `tests/support/engine-stack.ts`
 * read the tier and refuse to run in this one, naming the folder the file belongs in.
 */
import type { TestProject } from "vitest/node";
import type { RealEngineContext } from "../real-engine/global-setup";

export function setup(project: TestProject): void {
  project.provide("tier", "fast");
  const none: RealEngineContext = { cliRoot: "", base: "" };
  project.provide("realEngine", none);
}
