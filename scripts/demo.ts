/**
 * `npm run demo`: from a fresh clone (after `npm ci`) to a deployed organisation.
 *
 * Starts the local emulator, deploys `examples/org-hierarchy` against it, prints the
 * resulting organisation as a tree, deploys a second time to show that nothing
 * changes, and stops the emulator. It runs the real `pulumi up` with a local file
 * backend in a temporary folder (no login): the Pulumi CLI found by
 * `scripts/pulumi-cli/locate.ts`, or, on a machine without one, the one
 * `npm run pulumi:install` builds (it says so first).
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type RunningEmulator, startEmulator } from "../emulator/index";
import {
  type ConsumerProject,
  createConsumerProject,
  REPO_ROOT,
} from "../harness/installed-package";
import { readOrganisation, renderOrganisation } from "./org-tree";
import { ensurePulumiCli } from "./pulumi-cli/ensure";
import type { PulumiCli } from "./pulumi-cli/locate";

const EXAMPLE = "org-hierarchy";
const STACK = "demo";

/** One deployment: how many resources it touched, for the "nothing changes" check. */
export interface Deployment {
  changed: number;
  unchanged: number;
}

/** What deploys the example for the demo: the real CLI, or a stand-in in its tests. */
export interface Deployer {
  /** One line saying how this demo deploys. */
  describe: string;
  deploy(): Promise<Deployment>;
  dispose(): void;
}

/** The real CLI, a file backend in a temporary folder, the token only in the environment. */
export function pulumiCliDeployer(
  cli: PulumiCli,
  project: ConsumerProject,
  emulator: RunningEmulator,
): Deployer {
  const backend = fs.mkdtempSync(path.join(os.tmpdir(), "irm-demo-backend-"));
  const pulumi = cli.pulumi;
  const env = {
    ...process.env,
    // The CLI's folder first: the plugin launchers beside it serve this run.
    PATH: `${cli.bin}${path.delimiter}${process.env.PATH ?? ""}`,
    PULUMI_HOME: path.join(backend, "home"),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "irm-demo",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // The provider and the lookups read these when no irm: config is set, so the
    // token never lands in stack configuration or state.
    IRM_API_URL: emulator.bootstrap.apiUrl,
    IRM_TOKEN: emulator.bootstrap.token,
  };
  const run = (args: string[]) => {
    const result = spawnSync(pulumi, [...args, "--non-interactive"], {
      cwd: project.dir,
      env,
      encoding: "utf8",
      stdio: "pipe",
    });
    if (result.status !== 0) {
      throw new Error(
        `pulumi ${args.join(" ")} failed:\n${result.stdout ?? ""}${result.stderr ?? ""}`,
      );
    }
    return result.stdout ?? "";
  };
  // `pulumi up` talks to the emulator in this very process: it must not block the event
  // loop as spawnSync would, or the emulator could not answer.
  const runInteractive = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(pulumi, [...args, "--non-interactive"], {
        cwd: project.dir,
        env,
        stdio: "inherit",
      });
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0 ? resolve() : reject(new Error(`pulumi ${args.join(" ")} exited with ${code}`)),
      );
    });
  run(["stack", "init", STACK]);
  run(["config", "set", "--stack", STACK, "irm:apiUrl", emulator.bootstrap.apiUrl]);
  run([
    "config",
    "set",
    "--stack",
    STACK,
    `${EXAMPLE}:rootGroupUid`,
    emulator.bootstrap.rootGroupUid,
  ]);
  return {
    describe: `Using the Pulumi CLI ${cli.version} (${pulumi}, from ${cli.source}) with a local file backend in ${backend}.`,
    async deploy() {
      // As users run it: the preview first, then the update.
      await runInteractive(["up", "--yes", "--stack", STACK]);
      // The last update's summary says what changed.
      return lastDeployment(JSON.parse(run(["stack", "history", "--json", "--stack", STACK])));
    },
    dispose() {
      fs.rmSync(backend, { recursive: true, force: true });
    },
  };
}

/**
 * The last update of `pulumi stack history --json`, counted as Pulumi's own summary
 * counts it (the stack itself is one resource).
 */
export function lastDeployment(
  history: Array<{ resourceChanges?: Record<string, number> }>,
): Deployment {
  const counts = history[0]?.resourceChanges ?? {};
  const unchanged = counts.same ?? 0;
  const changed = Object.entries(counts)
    .filter(([op]) => op !== "same")
    .reduce((sum, [, count]) => sum + count, 0);
  return { changed, unchanged };
}

async function countWrites(emulator: RunningEmulator): Promise<number> {
  const response = await fetch(`${emulator.url}/emulator/requests`);
  const { requests } = (await response.json()) as { requests: Array<{ method: string }> };
  return requests.filter((r) => r.method !== "GET").length;
}

export interface DemoOptions {
  /** Makes the deployer (default: the real Pulumi CLI, built first when none is found). */
  deployer?: (project: ConsumerProject, emulator: RunningEmulator) => Promise<Deployer>;
  /** Where the demo's lines go (default: the console). */
  log?: (line: string) => void;
}

/** The demo; answers its exit code (0 when the second deployment changed nothing). */
export async function runDemo(options: DemoOptions = {}): Promise<number> {
  const log = options.log ?? ((line: string) => console.log(line));
  const makeDeployer =
    options.deployer ??
    (async (project: ConsumerProject, emulator: RunningEmulator) =>
      pulumiCliDeployer(await ensurePulumiCli(), project, emulator));
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0 });
  log(
    `Emulator listening on ${emulator.url} (root organisation ${emulator.bootstrap.rootGroupUid}).`,
  );
  let project: ConsumerProject | undefined;
  let deployer: Deployer | undefined;
  try {
    // The example as a user has it: a copy with the package installed from what npm ships.
    project = createConsumerProject({
      name: "demo",
      programDir: path.join(REPO_ROOT, "examples", EXAMPLE),
    });
    deployer = await makeDeployer(project, emulator);
    log(deployer.describe);

    log(`\nFirst deployment of examples/${EXAMPLE}:`);
    const first = await deployer.deploy();
    log(
      `First deployment: ${first.changed} created or changed (Pulumi counts the stack as one).\n`,
    );

    const { apiUrl, token, rootGroupUid } = emulator.bootstrap;
    for (const line of renderOrganisation(await readOrganisation(apiUrl, token, rootGroupUid)))
      log(line);

    await fetch(`${emulator.url}/emulator/requests`, { method: "DELETE" });
    log("\nSecond deployment of the same program:");
    const second = await deployer.deploy();
    const writes = await countWrites(emulator);
    if (second.changed === 0 && writes === 0) {
      log(`Second deployment: no changes (${second.unchanged} unchanged, 0 write requests).`);
      return 0;
    }
    log(
      `Second deployment changed ${second.changed} resources with ${writes} write requests: unexpected.`,
    );
    return 1;
  } finally {
    deployer?.dispose();
    project?.remove();
    await emulator.close();
    log("Emulator stopped.");
  }
}

if (require.main === module) {
  runDemo().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
