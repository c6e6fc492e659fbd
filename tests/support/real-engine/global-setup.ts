/**
 * vitest global setup: finds the real Pulumi CLI (see scripts/pulumi-cli/locate.ts) and,
 * when there is one, reserves the folder the packed package is installed into (by the
 * first real-engine stack of the run). With
 * `IRM_REQUIRE_PULUMI_CLI=1` (CI) a missing CLI fails the run; otherwise the run goes on,
 * skipping the engine scenarios, and says so in one line.
 */
import * as fs from "node:fs";
import type { TestProject } from "vitest/node";
import {
  type RealEngineContext,
  reserveInstalledBase,
} from "../../../harness/real-engine/installed-base";
import { findPulumiCli } from "../../../scripts/pulumi-cli/locate";

export type { RealEngineContext };

declare module "vitest" {
  export interface ProvidedContext {
    realEngine: RealEngineContext;
    /** The tier the file runs in (vitest.config.ts): "fast" has no engine. */
    tier: "fast" | "engine";
  }
}

let base = "";

export function setup(project: TestProject): void {
  project.provide("tier", "engine");
  const cli = findPulumiCli();
  if (!cli) {
    if (process.env.IRM_REQUIRE_PULUMI_CLI === "1") {
      throw new Error(
        "IRM_REQUIRE_PULUMI_CLI=1 but no Pulumi CLI was found (PULUMI_CLI_DIR, the pulumi:install cache, PATH); run npm run pulumi:install",
      );
    }
    process.stdout.write(
      "real engine: no Pulumi CLI found (npm run pulumi:install provides one); the engine scenarios are skipped\n",
    );
    project.provide("realEngine", { cliRoot: "", base: "" });
    return;
  }
  base = reserveInstalledBase();
  process.stdout.write(
    `real engine: Pulumi CLI ${cli.version} from ${cli.source} (${cli.pulumi})\n`,
  );
  project.provide("realEngine", { cliRoot: cli.root, base });
}

export function teardown(): void {
  if (base !== "") fs.rmSync(base, { recursive: true, force: true });
}
