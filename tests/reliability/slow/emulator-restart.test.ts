/**
 * The emulator restarted in the middle of a run with `--data`, as a user runs it
 * (`node dist/emulator/cli.js --port P --data F`): once stopped cleanly (SIGTERM), once
 * killed outright (SIGKILL) while writes were in flight. The state file is never
 * corrupt, a clean restart loses nothing and the run completes, and after a crash
 * `refresh` then `up` converge to state equal to the service. The runs are `pulumi up`
 * and `pulumi refresh` on the real Pulumi engine, on one stack.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachEmulator, type Bootstrap, type LogEntry } from "../../../harness/emulator";
import { REPO_ROOT } from "../../../harness/installed-package";
import { IrmClient } from "../../../sdk/index";
import type { EngineStack, RunOutcome } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { recordFigures } from "../../support/reliability/figures";
import {
  bigOrgStack,
  CLEAN,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../../support/reliability/org";

const CLI = path.join(REPO_ROOT, "dist", "emulator", "cli.js");
const TEAMS = 12;
/** Retries that outlast a restart (about a second) with room to spare. */
const RETRY_ENV = { IRM_MAX_RETRIES: "12" };

interface RunningCli {
  child: ChildProcess;
  exited: Promise<number | null>;
}

let stack: EngineStack;
let workDir: string;
let dataFile: string;
let bootstrapFile: string;
let port: number;
let current: RunningCli | undefined;

/** A port that was free a moment ago, so a restart can come back on the same address. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port: chosen } = server.address() as net.AddressInfo;
      server.close(() => resolve(chosen));
    });
  });
}

function startCli(): Promise<RunningCli> {
  const child = spawn(
    process.execPath,
    [CLI, "--port", String(port), "--data", dataFile, "--bootstrap-file", bootstrapFile],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return new Promise((ready, fail) => {
    let stdout = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (/^listening on http:\/\/\S+$/m.test(stdout)) ready({ child, exited });
    });
    child.once("exit", (code) => fail(new Error(`emulator exited (${code}): ${stderr}`)));
  });
}

async function stopCli(signal: NodeJS.Signals): Promise<void> {
  if (!current) return;
  current.child.kill(signal);
  await current.exited;
  current = undefined;
}

/** Parses the data file as the emulator would; throws if it is not a whole state document. */
function readStateFile(): { groups: number; version: unknown } {
  const saved = JSON.parse(fs.readFileSync(dataFile, "utf8")) as {
    version: unknown;
    rootGroupUid: unknown;
    groups?: unknown[];
  };
  expect(saved.version).toBe(1);
  expect(typeof saved.rootGroupUid).toBe("string");
  return { version: saved.version, groups: Array.isArray(saved.groups) ? saved.groups.length : 0 };
}

function bootstrap(): Bootstrap {
  return JSON.parse(fs.readFileSync(bootstrapFile, "utf8")) as Bootstrap;
}

async function requestLog(url: string): Promise<LogEntry[]> {
  const response = await fetch(`${url}/emulator/requests`);
  return ((await response.json()) as { requests: LogEntry[] }).requests;
}

/** Resolves once the running emulator has answered `count` more writes. */
async function waitForWrites(url: string, count: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const writes = (await requestLog(url)).filter(
      (e) => (e.method === "POST" || e.method === "PATCH") && e.status === 200,
    ).length;
    if (writes >= count) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${count} writes before the deadline`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function reconcileWith(boot: Bootstrap) {
  const client = new IrmClient({ baseUrl: boot.apiUrl, token: boot.token });
  try {
    return reconcile(await stack.resources(), await serviceSnapshot(client, boot.rootGroupUid));
  } finally {
    await client.close();
  }
}

/** Starts the emulator unless it runs (a test may have left it stopped). */
async function ensureRunning(): Promise<Bootstrap> {
  if (!current) current = await startCli();
  return bootstrap();
}

/** Runs `start`; once `writes` writes were answered, stops the emulator and starts it again. */
async function interrupted(
  start: () => Promise<RunOutcome>,
  writes: number,
  signal: NodeJS.Signals,
): Promise<{ outcome: RunOutcome; fileAtStop: { groups: number } | undefined }> {
  const boot = bootstrap();
  // The run clears the log as it starts; clearing first keeps earlier writes out of the count.
  await fetch(`${boot.apiUrl}/emulator/requests`, { method: "DELETE" });
  const run = start();
  let fileAtStop: { groups: number } | undefined;
  try {
    await waitForWrites(boot.apiUrl, writes);
    await stopCli(signal);
    fileAtStop = readStateFile();
    current = await startCli();
  } finally {
    await run.catch(() => undefined);
  }
  return { outcome: await run, fileAtStop };
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "irm-restart-"));
  dataFile = path.join(workDir, "state.json");
  bootstrapFile = path.join(workDir, "bootstrap.json");
  port = await freePort();
  current = await startCli();
  stack = await bigOrgStack({
    name: "reliability-emulator-restart",
    emulator: attachEmulator(bootstrap()),
    teams: TEAMS,
    env: RETRY_ENV,
  });
});

afterAll(async () => {
  await stopCli("SIGTERM");
  await stack?.dispose();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

describe("the emulator restarted in the middle of a run with --data", () => {
  it("a clean restart (SIGTERM) mid-deployment loses nothing and the run completes", {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    const boot = await ensureRunning();
    // From an empty stack, whatever ran before.
    if ((await stack.resources()).length > 0) {
      const emptied = await stack.destroy();
      expect(emptied.error, emptied.output).toBeUndefined();
    }
    await stack.setConfig("revision", "1");
    const { outcome: result, fileAtStop } = await interrupted(() => stack.up(), 20, "SIGTERM");
    expect(result.error, result.output).toBeUndefined();
    expect(result.changes.filter((s) => s.op !== "create")).toEqual([]);
    expect(countsByType(await stack.resources())).toEqual(expectedCounts(TEAMS));
    // Same origin and keys after the restart: the token the stack was configured with
    // before the stop still works (the run above and the comparison below both use it).
    expect(bootstrap().apiUrl).toBe(boot.apiUrl);
    expect(bootstrap().token.length).toBeGreaterThan(0);
    const outcome = await reconcileWith(boot);
    expect(outcome).toEqual(CLEAN);

    recordFigures({
      id: "restart-sigterm",
      engine: engineLabel(stack),
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources, emulator stopped with SIGTERM and restarted after 20 writes`,
      injected: "SIGTERM, restart on the same port and --data file",
      operations: result.steps.length,
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "groups in the state file at the stop (root and seed included)": fileAtStop?.groups ?? 0,
        "failed steps": 0,
      },
      durationMs: Date.now() - started,
    });
  });

  it("a crash (SIGKILL) mid-update leaves a whole state file; refresh then up converge", {
    timeout: 900_000,
  }, async () => {
    const boot = await ensureRunning();
    // The organisation at revision 1 (nothing to do when the test above ran).
    await stack.setConfig("revision", "1");
    const deployed = await stack.up();
    expect(deployed.error, deployed.output).toBeUndefined();
    const started = Date.now();
    await stack.setConfig("revision", "2");
    // Mid-way through the 36 updates, with the last ones' journal writes pending.
    const { outcome: crashed } = await interrupted(() => stack.up(), 18, "SIGKILL");
    const leftovers = fs.readdirSync(workDir).filter((f) => f.endsWith(".tmp"));

    // Writes acknowledged in the last moments before the crash may be gone: refresh
    // learns what the service really holds, then up puts back what is missing.
    const refreshed = await stack.refresh();
    expect(refreshed.error, refreshed.output).toBeUndefined();
    const converged = await stack.up();
    expect(converged.error, converged.output).toBeUndefined();
    expect(countsByType(await stack.resources())).toEqual(expectedCounts(TEAMS));
    const afterUp = await reconcileWith(boot);
    expect({ ...afterUp, staleHydrated: [] }).toEqual(CLEAN);
    // One more refresh brings anything still stale (hydrated copies) up to date.
    const final = await stack.refresh();
    expect(final.error, final.output).toBeUndefined();
    const outcome = await reconcileWith(boot);
    expect(outcome).toEqual(CLEAN);
    // And the stack has converged: nothing left to do.
    const settled = await stack.preview({ expectNoChanges: true });
    expect(settled.error, settled.output).toBeUndefined();
    const client = new IrmClient({ baseUrl: boot.apiUrl, token: boot.token });
    const live = await serviceSnapshot(client, boot.rootGroupUid);
    await client.close();
    const declared = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(declared).toHaveLength(2 * TEAMS);
    expect(declared.every((g) => g.description.endsWith("revision 2"))).toBe(true);

    recordFigures({
      id: "restart-sigkill",
      engine: engineLabel(stack),
      title: `Update of ${3 * TEAMS} resources, emulator killed with SIGKILL after 18 writes and restarted`,
      injected: "SIGKILL (no flush), restart on the same port and --data file",
      operations:
        crashed.steps.length + refreshed.steps.length + converged.steps.length + final.steps.length,
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "interrupted run": crashed.error ? "failed, state kept" : "completed",
        "objects refresh found changed or gone after the crash": refreshed.changes.length,
        "steps the converging up took": converged.changes.length,
        "temporary files left by the killed writer": leftovers.length,
      },
      durationMs: Date.now() - started,
    });
  });
});
