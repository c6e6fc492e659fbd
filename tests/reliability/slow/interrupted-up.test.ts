/**
 * A `pulumi up` interrupted on the real engine between creates reaching the service and
 * state recording them, as a user's second Ctrl-C or a CI runner's cancel (SIGKILL of
 * the CLI) does it, then recovered as the README says, non-interactively:
 *
 *     pulumi stack export --file state.json
 *     irm-pending state.json --out repaired.json
 *     pulumi stack import --file repaired.json
 *     pulumi up --yes
 *
 * Each POST waits in the emulator (a latency fault) so that a wave of creates is in
 * flight when the signal comes; the emulator then makes those objects with no one left
 * to record them. After the recovery: no object twice on the service, no pending
 * operation, no object the stack does not know, and `preview --expect-no-changes`
 * passes. After the SIGKILL, the provider hosts the CLI started exit by themselves.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../../harness/emulator";
import { IrmClient } from "../../../sdk/index";
import { describeOnEngine, type EngineStack, expectConverged } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { recordFigures } from "../../support/reliability/figures";
import { bigOrgStack, CLEAN, reconcile, serviceSnapshot } from "../../support/reliability/org";

const TEAMS = 4;
/** Long enough for a wave of creates to be in flight when the signal comes. */
const LATENCY_MS = 2000;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every process below `root` now, with its command line. */
function descendants(root: number): Array<{ pid: number; cmdline: string }> {
  const parentOf = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const below: Array<{ pid: number; cmdline: string }> = [];
  for (const pid of parentOf.keys()) {
    for (let p = parentOf.get(pid); p !== undefined && p > 1; p = parentOf.get(p)) {
      if (p !== root) continue;
      let cmdline = "";
      try {
        cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      } catch {}
      below.push({ pid, cmdline });
      break;
    }
  }
  return below;
}

/** A command of the package as installed where the program finds it (`npx` finds the same). */
function installedBin(dir: string, name: string): string {
  for (let at = dir; at !== path.dirname(at); at = path.dirname(at)) {
    const manifest = path.join(at, "node_modules", "pulumi-irm", "package.json");
    if (!fs.existsSync(manifest)) continue;
    const bin = JSON.parse(fs.readFileSync(manifest, "utf8")).bin[name];
    return path.join(path.dirname(manifest), bin);
  }
  throw new Error(`pulumi-irm is not installed above ${dir}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(condition: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await condition()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return condition();
}

const creates = async (emulator: TestEmulator) =>
  (await emulator.requests()).filter((r) => r.method === "POST" && r.path.startsWith("/iam/"))
    .length;

let emulator: TestEmulator | undefined;
let stack: EngineStack | undefined;
let cli: ChildProcess | undefined;
const strays: number[] = [];

afterEach(async () => {
  if (cli?.pid && alive(cli.pid)) cli.kill("SIGKILL");
  for (const pid of strays.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  await stack?.dispose();
  await emulator?.close();
  stack = undefined;
  emulator = undefined;
});

describeOnEngine("an interrupted up, recovered with irm-pending", () => {
  for (const how of ["SIGINT twice", "SIGKILL of the CLI"] as const) {
    it(`leaves no duplicate and no pending operation: ${how}`, async () => {
      const startedAt = Date.now();
      emulator = await startTestEmulator();
      const live = emulator;
      stack = await bigOrgStack({
        name: `interrupted-${how.split(" ")[0]}`,
        emulator,
        teams: TEAMS,
      });
      const { path: pulumi, env } = stack.cli;
      const dir = stack.dir;
      await live.clearRequests();
      await live.fault({
        match: { method: "POST", path: "/iam/" },
        latencyMs: LATENCY_MS,
        count: 0,
      });

      cli = spawn(
        pulumi,
        ["up", "--yes", "--skip-preview", "--non-interactive", "--stack", "dev"],
        {
          cwd: dir,
          env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let output = "";
      cli.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      cli.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      const exited = new Promise<void>((done) => cli?.once("exit", () => done()));
      // The team groups are made and recorded; the next wave is then in flight.
      expect(await waitFor(async () => (await creates(live)) >= TEAMS, 120_000)).toBe(true);
      await new Promise((r) => setTimeout(r, LATENCY_MS / 2));
      const started = descendants(cli.pid ?? 0);
      const hosts = started.filter((p) => p.cmdline.includes("dynamic-provider"));
      expect(hosts.length).toBeGreaterThan(0);
      const before = await creates(live);
      if (how === "SIGINT twice") {
        cli.kill("SIGINT");
        await new Promise((r) => setTimeout(r, 200));
        cli.kill("SIGINT");
      } else {
        cli.kill("SIGKILL");
      }
      await exited;
      const killedAt = Date.now();
      // The provider hosts the CLI started exit by themselves.
      const hostsGone = await waitFor(() => hosts.every((h) => !alive(h.pid)), 15_000);
      const hostExitMs = Date.now() - killedAt;
      strays.push(...started.filter((p) => alive(p.pid)).map((p) => p.pid));
      // The creates in flight reach the service with no one to record them.
      let settled = before;
      await waitFor(async () => {
        const now = await creates(live);
        const same = now === settled;
        settled = now;
        return same && Date.now() - killedAt > LATENCY_MS + 500;
      }, 30_000);
      await live.clearFaults();

      const exportFile = path.join(dir, "state.json");
      const repairedFile = path.join(dir, "repaired.json");
      const exported = await run(pulumi, ["stack", "export", "--file", exportFile], dir, env);
      expect(exported.stderr).toBe("");
      const state = JSON.parse(fs.readFileSync(exportFile, "utf8"));
      const pendingBefore = (state.deployment.pending_operations ?? []).length;
      const inStateBefore = state.deployment.resources.filter((r: { type: string }) =>
        r.type.startsWith("pulumi-nodejs:dynamic/irm:"),
      ).length;
      const client = new IrmClient({ baseUrl: live.url, token: live.token });
      const strayBefore = reconcile(
        state.deployment.resources.filter((r: { type: string }) =>
          r.type.startsWith("pulumi-nodejs:dynamic/irm:"),
        ),
        await serviceSnapshot(client, live.rootGroupUid),
      ).untracked.length;
      // The interruption left what the recovery is for: objects made and not recorded.
      expect(pendingBefore, output).toBeGreaterThan(0);
      expect(strayBefore).toBeGreaterThan(0);

      if (how === "SIGKILL of the CLI") {
        // A killed CLI leaves the stack's lock: the file backend's `cancel` deletes it.
        const cancelled = await run(pulumi, ["cancel", "--yes", "--stack", "dev"], dir, env);
        expect(cancelled.code, cancelled.stderr).toBe(0);
      }
      const irmPending = installedBin(dir, "irm-pending");
      const apiEnv = { ...env, IRM_API_URL: live.url, IRM_TOKEN: live.token };

      // The route Pulumi offers, given every pending create's true uid, records none of
      // them (3.248 relabels the operations and no step reads them): the finding.
      const report = await run(process.execPath, [irmPending, exportFile], dir, apiEnv);
      const pairs = [...report.stderr.matchAll(/^irm-pending: record '([^']+)' as '([^']+)'$/gm)];
      expect(pairs.length).toBe(pendingBefore);
      const refreshed = await run(
        pulumi,
        [
          "refresh",
          "--yes",
          "--non-interactive",
          "--stack",
          "dev",
          ...pairs.flatMap(([, urn, uid]) => [
            "--import-pending-creates",
            urn,
            "--import-pending-creates",
            uid,
          ]),
        ],
        dir,
        env,
      );
      expect(refreshed.code, refreshed.stderr).toBe(0);
      const afterRefresh = JSON.parse((await run(pulumi, ["stack", "export"], dir, env)).stdout);
      const importedByRefresh = pairs.filter(([, urn, uid]) =>
        afterRefresh.deployment.resources.some(
          (r: { urn: string; id?: string }) => r.urn === urn && r.id === uid,
        ),
      ).length;
      // The recovery below imports a whole deployment made from the export taken before.

      // The README's recovery, as a pipeline runs it.
      const repaired = await run(
        process.execPath,
        [irmPending, exportFile, "--out", repairedFile],
        dir,
        apiEnv,
      );
      expect(repaired.code, repaired.stderr).toBe(0);
      const recorded = (repaired.stderr.match(/^irm-pending: record /gm) ?? []).length;
      const dropped = (repaired.stderr.match(/^irm-pending: drop /gm) ?? []).length;
      const imported = await run(pulumi, ["stack", "import", "--file", repairedFile], dir, env);
      expect(imported.code, imported.stderr).toBe(0);
      const resumed = await stack.up();
      expect(resumed.error).toBeUndefined();
      const preview = await stack.preview({ expectNoChanges: true });
      expect(preview.error).toBeUndefined();
      await expectConverged(stack);

      const after = await run(pulumi, ["stack", "export"], dir, env);
      const finalState = JSON.parse(after.stdout);
      const resources = finalState.deployment.resources.filter((r: { type: string }) =>
        r.type.startsWith("pulumi-nodejs:dynamic/irm:"),
      );
      const service = await serviceSnapshot(client, live.rootGroupUid);
      await client.close();
      const reconciliation = reconcile(resources, service);
      expect(reconciliation).toEqual(CLEAN);
      expect(finalState.deployment.pending_operations ?? []).toEqual([]);
      expect(resources).toHaveLength(5 * TEAMS);
      expect(hostsGone, `provider hosts left: ${hosts.map((h) => h.pid).join(", ")}`).toBe(true);

      recordFigures({
        id: `interrupted-up-${how === "SIGINT twice" ? "sigint" : "sigkill"}`,
        title: `An up of ${5 * TEAMS} resources interrupted by ${how}, recovered with irm-pending`,
        injected: `${LATENCY_MS} ms before each create; ${how} once the first ${TEAMS} creates were recorded`,
        operations: 5 * TEAMS,
        lost: reconciliation.lost.length,
        duplicates: reconciliation.duplicates.length,
        engine: engineLabel(stack),
        notes: {
          "recorded in state when interrupted": inStateBefore,
          "pending operations left": pendingBefore,
          "objects made and not recorded": strayBefore,
          "recorded by refresh --import-pending-creates given the true uids": importedByRefresh,
          "recorded by irm-pending": recorded,
          "dropped by irm-pending (never made)": dropped,
          "creates the resumed up sent": resumed.steps.filter((s) => s.op === "create").length,
          "objects not in state after recovery": reconciliation.untracked.length,
          "pending operations after recovery": (finalState.deployment.pending_operations ?? [])
            .length,
          "provider hosts still running 15 s after": hosts.filter((h) => alive(h.pid)).length,
          "other processes of the interrupted run left at the end": started.filter(
            (p) => !hosts.includes(p) && alive(p.pid),
          ).length,
          "seconds until the provider hosts exited": hostsGone
            ? Math.round(hostExitMs / 100) / 10
            : "not within 15",
        },
        durationMs: Date.now() - startedAt,
      });
    });
  }
});
