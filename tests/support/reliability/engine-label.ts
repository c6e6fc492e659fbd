/**
 * Which engine a scenario deployed through, for its figures: the real Pulumi engine with
 * its CLI version. Called from tests only (it reads what
 * the global setup provided).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { inject } from "vitest";
import type { EngineStack } from "../../../harness/stack";

let cliVersion: string | undefined;

export function engineLabel(_stack: Pick<EngineStack, "engine">): string {
  if (cliVersion === undefined) {
    const pulumi = path.join(inject("realEngine").cliRoot, "bin", "pulumi");
    cliVersion = execFileSync(pulumi, ["version"], { encoding: "utf8" }).trim();
  }
  return `real Pulumi engine, CLI ${cliVersion}`;
}
