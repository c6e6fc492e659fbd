/**
 * A 200-resource organisation deployed, updated, refreshed and destroyed on the real
 * Pulumi engine (the CLI through the Automation API, the package installed from its
 * packed tarball) while the emulator fails 20% of API requests with 503 and delays
 * others: every run completes, every object exists exactly once, and state equals the
 * service after each step.
 */
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../../harness/emulator";
import type { RunOutcome } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import {
  bigOrgStack,
  CLEAN,
  countsByType,
  expectedCounts,
  nameOfUrn,
  opsCount,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../../support/reliability/org";
import { useScenario } from "../../support/reliability/scenario";

const TEAMS = 40;
const FAILURE_RATE = 0.2;
const SPIKE_RATE = 0.05;
const SPIKE_MS = 750;
/** Enough retries that 20% failures never exhaust them (0.2^11 per request). */
const RETRY_ENV = { IRM_MAX_RETRIES: "10" };
const API_PATHS = "^/(iam|registry|vulnerabilities)/";
const WRITES = new Set(["POST", "PATCH", "DELETE"]);

const ctx = useScenario({
  client: { retry: { retries: 10 } },
  stack: (emu) =>
    bigOrgStack({
      name: "reliability-deploy-under-faults",
      emulator: emu,
      teams: TEAMS,
      env: RETRY_ENV,
    }),
});

/** 503 on a fifth of API requests, then a latency spike on a twentieth of the others. */
async function injectFaults(): Promise<void> {
  await ctx.emu.clearFaults();
  await ctx.emu.fault({
    match: { pathRegex: API_PATHS },
    status: 503,
    probability: FAILURE_RATE,
    count: 0,
  });
  await ctx.emu.fault({
    match: { pathRegex: API_PATHS },
    latencyMs: SPIKE_MS,
    // Applies to the requests the 503 fault passed over: 5% of all requests overall.
    probability: SPIKE_RATE / (1 - FAILURE_RATE),
    count: 0,
  });
}

/** Compares the stack's state with the service, faults off for the reading. */
async function reconcileWithService() {
  await ctx.emu.clearFaults();
  return reconcile(
    await ctx.stack.resources(),
    await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid),
  );
}

describe(`a ${TEAMS * RESOURCES_PER_TEAM}-resource organisation under ${FAILURE_RATE * 100}% 503s and latency spikes`, () => {
  // Five whole runs of 200 resources on the real engine, on a shared two-core machine.
  it("deploys, updates, refreshes and destroys with nothing lost, nothing duplicated", {
    timeout: 1_500_000,
  }, async () => {
    const started = Date.now();
    const phases: Array<{ phase: string; entries: LogEntry[]; steps: number; ms: number }> = [];
    /** One run under faults; its request log (the run clears the log as it starts). */
    async function phase(name: string, run: () => Promise<RunOutcome>) {
      await injectFaults();
      const phaseStarted = Date.now();
      const outcome = await run();
      const ms = Date.now() - phaseStarted;
      const entries = await ctx.emu.requests();
      phases.push({ phase: name, entries, steps: outcome.steps.length, ms });
      return { outcome, entries };
    }

    // 1. First deployment.
    const { outcome: first, entries: upEntries } = await phase("up", () => ctx.stack.up());
    expect(first.error, first.output).toBeUndefined();
    expect(opsCount(first.steps, "create")).toBe(TEAMS * RESOURCES_PER_TEAM);
    expect(countsByType(await ctx.stack.resources())).toEqual(expectedCounts(TEAMS));
    expect(await reconcileWithService()).toEqual(CLEAN);
    // The faults really were there: roughly a fifth of the requests failed.
    expect(countByStatus(upEntries)["503"]).toBeGreaterThan(0);

    // 2. The same program again: nothing to do, and no write even attempted.
    const { outcome: again, entries: againEntries } = await phase("up (no change)", () =>
      ctx.stack.up(),
    );
    expect(again.error, again.output).toBeUndefined();
    expect(again.changes).toEqual([]);
    expect(again.steps).toHaveLength(TEAMS * RESOURCES_PER_TEAM);
    expect(againEntries.filter((e) => WRITES.has(e.method))).toEqual([]);
    expect(await reconcileWithService()).toEqual(CLEAN);

    // 3. Every description changes: 120 updates in place, no replacement.
    await ctx.stack.setConfig("revision", "2");
    const { outcome: updated } = await phase("up (update)", () => ctx.stack.up());
    expect(updated.error, updated.output).toBeUndefined();
    expect(opsCount(updated.steps, "update")).toBe(3 * TEAMS);
    expect(updated.changes.filter((s) => s.op !== "update")).toEqual([]);
    // Every object is current, except possibly the hydrated copies inside role bindings
    // of the identity and groups whose description changed (counted, refreshed below).
    const afterUpdate = await reconcileWithService();
    expect({ ...afterUpdate, staleHydrated: [] }).toEqual(CLEAN);
    const live = await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid);
    const teamGroups = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(teamGroups).toHaveLength(2 * TEAMS);
    expect(teamGroups.every((g) => g.description.endsWith("revision 2"))).toBe(true);
    const teamIdentities = live.identities.filter((i) => /^ci-\d+$/.test(i.name));
    expect(teamIdentities).toHaveLength(TEAMS);
    expect(teamIdentities.every((i) => i.description.endsWith("revision 2"))).toBe(true);

    // 4. Refresh under faults brings exactly those stale bindings up to date (and finds
    // nothing else changed or gone), then state equals the service to the last field.
    const { outcome: refreshed } = await phase("refresh", () => ctx.stack.refresh());
    expect(refreshed.error, refreshed.output).toBeUndefined();
    expect(refreshed.changes.map((s) => `${s.op} ${s.name}`).sort()).toEqual(
      afterUpdate.staleHydrated.map((urn) => `refresh-update ${nameOfUrn(urn)}`).sort(),
    );
    expect(await reconcileWithService()).toEqual(CLEAN);

    // 5. Destroy under faults removes every object of the stack, children first.
    const { outcome: destroyed } = await phase("destroy", () => ctx.stack.destroy());
    expect(destroyed.error, destroyed.output).toBeUndefined();
    expect(opsCount(destroyed.steps, "delete")).toBe(TEAMS * RESOURCES_PER_TEAM);
    expect(await ctx.stack.resources()).toEqual([]);
    await ctx.emu.clearFaults();
    const after = await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid);
    expect(after.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name))).toEqual([]);
    expect(after.identities.filter((i) => /^ci-\d+$/.test(i.name))).toEqual([]);
    expect(after.bindings.filter((b) => b.uid.includes("/team-"))).toEqual([]);

    const allEntries = phases.flatMap((p) => p.entries);
    recordFigures({
      id: "deploy-under-503s",
      engine: engineLabel(ctx.stack),
      title: `Deployment of a ${TEAMS * RESOURCES_PER_TEAM}-resource organisation (up, no-op up, update, refresh, destroy)`,
      injected: `503 on ${FAILURE_RATE * 100}% of API requests (random), ${SPIKE_MS} ms latency on another ${SPIKE_RATE * 100}%`,
      operations: phases.reduce((sum, p) => sum + p.steps, 0),
      requests: allEntries.length,
      byStatus: countByStatus(allEntries),
      lost: 0,
      duplicates: 0,
      notes: {
        ...Object.fromEntries(
          phases.map((p) => {
            const counts = countByStatus(p.entries);
            return [
              p.phase,
              `${p.steps} steps, ${p.entries.length} requests, ${counts["503"] ?? 0} × 503, ${(p.ms / 1000).toFixed(1)} s`,
            ];
          }),
        ),
        "bindings with stale hydrated copies after the update": afterUpdate.staleHydrated.length,
      },
      durationMs: Date.now() - started,
    });
  });
});
