/**
 * The emulator restarted in the middle of a run with `--data`, as a user runs it
 * (`node dist/emulator/cli.js --port P --data F`): once stopped cleanly (SIGTERM), once
 * killed outright (SIGKILL) while writes were in flight. The state file is never
 * corrupt, a clean restart loses nothing and the run completes, and after a crash
 * `refresh` then `up` converge to state equal to the service.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../../sdk/index";
import type { Bootstrap, LogEntry } from "../../support/emulator";
import { type ConsumerProject, REPO_ROOT } from "../../support/installed-package";
import { newStack, refresh, type StackState, up } from "../../support/lifecycle/engine";
import { recordFigures } from "../support/figures";
import {
  bigOrgConfig,
  bigOrgProject,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../support/org";

const CLI = path.join(REPO_ROOT, "dist", "emulator", "cli.js");
const TEAMS = 12;
const CLEAN = { lost: [], duplicates: [], untracked: [], drifted: [], staleHydrated: [] };
/** Retries that outlast a restart (about a second) with room to spare. */
const RETRY_ENV = { IRM_MAX_RETRIES: "12" };

interface RunningCli {
  child: ChildProcess;
  exited: Promise<number | null>;
}

let project: ConsumerProject;
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

function stackConfig(boot: Bootstrap, revision: string) {
  return {
    ...bigOrgConfig({
      apiUrl: boot.apiUrl,
      rootUid: boot.rootGroupUid,
      issuer: boot.issuer,
      teams: TEAMS,
      token: boot.token,
      revision,
    }),
    env: RETRY_ENV,
  };
}

async function reconcileWith(boot: Bootstrap, state: StackState) {
  const client = new IrmClient({ baseUrl: boot.apiUrl, token: boot.token });
  try {
    return reconcile(state, await serviceSnapshot(client, boot.rootGroupUid));
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  project = bigOrgProject("reliability-emulator-restart");
  workDir = fs.mkdtempSync(path.join(project.dir, ".restart-"));
  dataFile = path.join(workDir, "state.json");
  bootstrapFile = path.join(workDir, "bootstrap.json");
  port = await freePort();
});

afterAll(async () => {
  await stopCli("SIGTERM");
});

describe("the emulator restarted in the middle of a run with --data", () => {
  let afterCleanRestart: StackState;

  it("a clean restart (SIGTERM) mid-deployment loses nothing and the run completes", async () => {
    const started = Date.now();
    current = await startCli();
    const boot = bootstrap();
    const run = up(project.dir, newStack(project.dir), stackConfig(boot, "1"));
    let fileAfterStop: { groups: number } | undefined;
    try {
      await waitForWrites(boot.apiUrl, 20);
      await stopCli("SIGTERM");
      fileAfterStop = readStateFile();
      current = await startCli();
    } finally {
      await run.catch(() => undefined);
    }
    const result = await run;
    expect(result.error, result.log).toBeUndefined();
    expect(countsByType(result.state)).toEqual(expectedCounts(TEAMS));
    // Same keys and origin after the restart: the bootstrap token still works.
    expect(bootstrap().token).not.toBe("");
    const outcome = await reconcileWith(boot, result.state);
    expect(outcome).toEqual(CLEAN);
    afterCleanRestart = result.state;

    recordFigures({
      id: "restart-sigterm",
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources, emulator stopped with SIGTERM and restarted after 20 writes`,
      injected: "SIGTERM, restart on the same port and --data file",
      operations: result.steps.length,
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "groups in the state file at the stop (root and seed included)": fileAfterStop?.groups ?? 0,
        "failed steps": 0,
      },
      durationMs: Date.now() - started,
    });
  });

  it("a crash (SIGKILL) mid-update leaves a whole state file; refresh then up converge", async () => {
    const started = Date.now();
    const boot = bootstrap();
    // Count only this run's writes.
    await fetch(`${boot.apiUrl}/emulator/requests`, { method: "DELETE" });
    const run = up(project.dir, afterCleanRestart, stackConfig(boot, "2"));
    try {
      // Mid-way through the 36 updates, with some of them in flight.
      await waitForWrites(boot.apiUrl, 18);
      await stopCli("SIGKILL");
      readStateFile();
      current = await startCli();
    } finally {
      await run.catch(() => undefined);
    }
    const interrupted = await run;
    const leftovers = fs.readdirSync(workDir).filter((f) => f.endsWith(".tmp"));

    // Acknowledged writes survive (the emulator answers once they are on disk), but
    // the engine's in-flight steps were cut off: refresh learns what the service
    // really holds, then up finishes what is missing.
    const refreshed = await refresh(project.dir, interrupted.state, stackConfig(boot, "2"));
    expect(refreshed.error).toBeUndefined();
    const converged = await up(project.dir, refreshed.state, stackConfig(boot, "2"));
    expect(converged.error, converged.log).toBeUndefined();
    expect(countsByType(converged.state)).toEqual(expectedCounts(TEAMS));
    const afterUp = await reconcileWith(boot, converged.state);
    expect({ ...afterUp, staleHydrated: [] }).toEqual(CLEAN);
    // One more refresh brings the bindings' hydrated copies up to date too.
    const final = await refresh(project.dir, converged.state, stackConfig(boot, "2"));
    const outcome = await reconcileWith(boot, final.state);
    expect(outcome).toEqual(CLEAN);
    const client = new IrmClient({ baseUrl: boot.apiUrl, token: boot.token });
    const live = await serviceSnapshot(client, boot.rootGroupUid);
    await client.close();
    const declared = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(declared).toHaveLength(2 * TEAMS);
    expect(declared.every((g) => g.description.endsWith("revision 2"))).toBe(true);

    recordFigures({
      id: "restart-sigkill",
      title: `Update of ${3 * TEAMS} resources, emulator killed with SIGKILL after 18 writes and restarted`,
      injected: "SIGKILL (no flush), restart on the same port and --data file",
      operations:
        interrupted.steps.length +
        refreshed.steps.length +
        converged.steps.length +
        final.steps.length,
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "interrupted run": interrupted.error ? "failed, state kept" : "completed",
        "objects refresh found changed or gone after the crash": refreshed.steps.filter(
          (s) => s.op !== "same",
        ).length,
        "steps the converging up took": converged.steps.filter((s) => s.op !== "same").length,
        "temporary files left by the killed writer": leftovers.length,
      },
      durationMs: Date.now() - started,
    });
  });
});
