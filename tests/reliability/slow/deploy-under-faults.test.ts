/**
 * A 200-resource organisation deployed, updated, refreshed and destroyed through the
 * mini engine and the real provider host while the emulator fails 20% of API requests
 * with 503 and delays others: every run completes, every object exists exactly once,
 * and state equals the service after each step.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../../sdk/index";
import { type LogEntry, startTestEmulator, type TestEmulator } from "../../support/emulator";
import type { ConsumerProject } from "../../support/installed-package";
import {
  destroy,
  newStack,
  refresh,
  type StackState,
  type Step,
  up,
} from "../../support/lifecycle/engine";
import { countByStatus, recordFigures } from "../support/figures";
import {
  bigOrgConfig,
  bigOrgProject,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../support/org";

const TEAMS = 40;
const FAILURE_RATE = 0.2;
const SPIKE_RATE = 0.05;
const SPIKE_MS = 750;
/** Enough retries that 20% failures never exhaust them (0.2^11 per request). */
const RETRY_ENV = { IRM_MAX_RETRIES: "10" };
const API_PATHS = "^/(iam|registry|vulnerabilities)/";
const WRITES = new Set(["POST", "PATCH", "DELETE"]);

let emu: TestEmulator;
let client: IrmClient;
let project: ConsumerProject;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token, retry: { retries: 10 } });
  project = bigOrgProject("reliability-deploy-under-faults");
});

afterAll(async () => {
  await client?.close();
  await emu?.close();
});

/** 503 on a fifth of API requests, then a latency spike on a twentieth of the others. */
async function injectFaults(): Promise<void> {
  await emu.clearFaults();
  await emu.fault({
    match: { pathRegex: API_PATHS },
    status: 503,
    probability: FAILURE_RATE,
    count: 0,
  });
  await emu.fault({
    match: { pathRegex: API_PATHS },
    latencyMs: SPIKE_MS,
    // Applies to the requests the 503 fault passed over: 5% of all requests overall.
    probability: SPIKE_RATE / (1 - FAILURE_RATE),
    count: 0,
  });
}

function stackConfig(revision: string) {
  return {
    ...bigOrgConfig({
      apiUrl: emu.url,
      rootUid: emu.rootGroupUid,
      issuer: emu.issuer,
      teams: TEAMS,
      token: emu.token,
      revision,
    }),
    env: RETRY_ENV,
    timeoutMs: 280_000,
  };
}

function opsCount(steps: Step[], op: Step["op"]): number {
  return steps.filter((s) => s.op === op).length;
}

const CLEAN = { lost: [], duplicates: [], untracked: [], drifted: [], staleHydrated: [] };

async function reconcileWithService(state: StackState) {
  await emu.clearFaults();
  return reconcile(state, await serviceSnapshot(client, emu.rootGroupUid));
}

describe(`a ${TEAMS * RESOURCES_PER_TEAM}-resource organisation under ${FAILURE_RATE * 100}% 503s and latency spikes`, () => {
  it("deploys, updates, refreshes and destroys with nothing lost, nothing duplicated", async () => {
    const started = Date.now();
    const phases: Array<{ phase: string; entries: LogEntry[]; steps: number }> = [];

    // 1. First deployment.
    await injectFaults();
    await emu.clearRequests();
    const first = await up(project.dir, newStack(project.dir), stackConfig("1"));
    expect(first.error, first.log).toBeUndefined();
    phases.push({ phase: "up", entries: await emu.requests(), steps: first.steps.length });
    expect(opsCount(first.steps, "create")).toBe(TEAMS * RESOURCES_PER_TEAM);
    expect(countsByType(first.state)).toEqual(expectedCounts(TEAMS));
    expect(await reconcileWithService(first.state)).toEqual(CLEAN);
    // The faults really were there: roughly a fifth of the requests failed.
    const upStatus = countByStatus(phases[0].entries);
    expect(upStatus["503"]).toBeGreaterThan(0);

    // 2. The same program again: nothing to do, and no write even attempted.
    await injectFaults();
    await emu.clearRequests();
    const again = await up(project.dir, first.state, stackConfig("1"));
    expect(again.error, again.log).toBeUndefined();
    const againEntries = await emu.requests();
    phases.push({ phase: "up (no change)", entries: againEntries, steps: again.steps.length });
    expect(again.steps.every((s) => s.op === "same")).toBe(true);
    expect(againEntries.filter((e) => WRITES.has(e.method))).toEqual([]);

    // 3. Every description changes: 120 updates in place, no replacement.
    await injectFaults();
    await emu.clearRequests();
    const updated = await up(project.dir, again.state, stackConfig("2"));
    expect(updated.error, updated.log).toBeUndefined();
    phases.push({
      phase: "up (update)",
      entries: await emu.requests(),
      steps: updated.steps.length,
    });
    expect(opsCount(updated.steps, "update")).toBe(3 * TEAMS);
    expect(opsCount(updated.steps, "replace")).toBe(0);
    // Every object is current except the hydrated copies inside role bindings: the
    // identity and groups they show changed description, which bindings learn at refresh.
    const afterUpdate = await reconcileWithService(updated.state);
    expect({ ...afterUpdate, staleHydrated: [] }).toEqual(CLEAN);
    expect(afterUpdate.staleHydrated).toHaveLength(2 * TEAMS);
    const live = await serviceSnapshot(client, emu.rootGroupUid);
    const teamGroups = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(teamGroups).toHaveLength(2 * TEAMS);
    expect(teamGroups.every((g) => g.description.endsWith("revision 2"))).toBe(true);

    // 4. Refresh under faults brings exactly those bindings up to date, then state
    // equals the service to the last field.
    await injectFaults();
    await emu.clearRequests();
    const refreshed = await refresh(project.dir, updated.state, stackConfig("2"));
    expect(refreshed.error).toBeUndefined();
    phases.push({ phase: "refresh", entries: await emu.requests(), steps: refreshed.steps.length });
    expect(
      refreshed.steps
        .filter((s) => s.op === "refresh-update")
        .map((s) => s.urn)
        .sort(),
    ).toEqual([...afterUpdate.staleHydrated].sort());
    expect(opsCount(refreshed.steps, "refresh-delete")).toBe(0);
    expect(await reconcileWithService(refreshed.state)).toEqual(CLEAN);

    // 5. Destroy under faults removes every object of the stack, children first.
    await injectFaults();
    await emu.clearRequests();
    const destroyed = await destroy(project.dir, refreshed.state, stackConfig("2"));
    expect(destroyed.error).toBeUndefined();
    phases.push({ phase: "destroy", entries: await emu.requests(), steps: destroyed.steps.length });
    expect(destroyed.state.resources).toEqual([]);
    await emu.clearFaults();
    const after = await serviceSnapshot(client, emu.rootGroupUid);
    expect(after.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name))).toEqual([]);
    expect(after.identities.filter((i) => /^ci-\d+$/.test(i.name))).toEqual([]);
    expect(after.bindings.filter((b) => /^ci-\d+$/.test(b.identity.name))).toEqual([]);

    const allEntries = phases.flatMap((p) => p.entries);
    const byStatus = countByStatus(allEntries);
    recordFigures({
      id: "deploy-under-503s",
      title: `Deployment of a ${TEAMS * RESOURCES_PER_TEAM}-resource organisation (up, no-op up, update, refresh, destroy)`,
      injected: `503 on ${FAILURE_RATE * 100}% of API requests (random), ${SPIKE_MS} ms latency on another ${SPIKE_RATE * 100}%`,
      operations: phases.reduce((sum, p) => sum + p.steps, 0),
      requests: allEntries.length,
      byStatus,
      lost: 0,
      duplicates: 0,
      notes: Object.fromEntries(
        phases.map((p) => {
          const counts = countByStatus(p.entries);
          return [
            p.phase,
            `${p.steps} steps, ${p.entries.length} requests, ${counts["503"] ?? 0} × 503`,
          ];
        }),
      ),
      durationMs: Date.now() - started,
    });
  });
});
