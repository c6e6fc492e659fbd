/**
 * Connections dropped after the service acted: a create whose answer never arrives
 * must not leave a second object behind. The emulator handles a share of the creates
 * and updates, then closes the socket without answering; the provider looks the object
 * up before creating again, so the deployment (on the real Pulumi engine) ends with
 * each object exactly once.
 */
import { describe, expect, it } from "vitest";
import { engineLabel } from "../../support/reliability/engine-label";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import {
  bigOrgStack,
  CLEAN,
  countsByType,
  expectedCounts,
  nameOfUrn,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../../support/reliability/org";
import { useScenario } from "../../support/reliability/scenario";

const TEAMS = 12;
const DROP_RATE = 0.3;

const ctx = useScenario({
  stack: (emu) =>
    bigOrgStack({
      name: "reliability-dropped-connections",
      emulator: emu,
      teams: TEAMS,
      env: { IRM_MAX_RETRIES: "10" },
    }),
});

async function reconcileWithService() {
  await ctx.emu.clearFaults();
  return reconcile(
    await ctx.stack.resources(),
    await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid),
  );
}

describe("connections dropped after the service acted", () => {
  it("creates and updates whose answers were lost leave each object exactly once", {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    await ctx.emu.clearRequests();
    await ctx.emu.fault({
      match: { method: "POST" },
      drop: "after",
      probability: DROP_RATE,
      count: 0,
    });
    await ctx.emu.fault({ match: { method: "GET" }, drop: "before", probability: 0.1, count: 0 });

    const created = await ctx.stack.up();
    expect(created.error, created.output).toBeUndefined();
    const createEntries = await ctx.emu.requests();
    const createdAt = Date.now();
    const droppedCreates = createEntries.filter((e) => e.method === "POST" && e.status === 0);
    // The faults really hit creates, and each of those was followed by a lookup, not a second create.
    expect(droppedCreates.length).toBeGreaterThan(0);
    expect(createEntries.filter((e) => e.method === "POST" && e.status === 200)).toHaveLength(
      TEAMS * RESOURCES_PER_TEAM - droppedCreates.length,
    );
    expect(created.changes.filter((s) => s.op !== "create")).toEqual([]);
    expect(countsByType(await ctx.stack.resources())).toEqual(expectedCounts(TEAMS));
    expect(await reconcileWithService()).toEqual(CLEAN);

    // Updates whose answers were lost are repeated (PATCH with a mask is idempotent).
    await ctx.emu.clearRequests();
    await ctx.emu.fault({
      match: { method: "PATCH" },
      drop: "after",
      probability: DROP_RATE,
      count: 0,
    });
    await ctx.stack.setConfig("revision", "2");
    const updated = await ctx.stack.up();
    expect(updated.error, updated.output).toBeUndefined();
    const updateEntries = await ctx.emu.requests();
    const droppedUpdates = updateEntries.filter((e) => e.method === "PATCH" && e.status === 0);
    expect(updated.steps.filter((s) => s.op === "update")).toHaveLength(3 * TEAMS);
    expect(updated.changes.filter((s) => s.op !== "update")).toEqual([]);
    // The faults really hit updates too; each was repeated and took effect once.
    expect(droppedUpdates.length).toBeGreaterThan(0);
    const afterUpdate = await reconcileWithService();
    expect({ ...afterUpdate, staleHydrated: [] }).toEqual(CLEAN);
    const live = await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid);
    const declaredGroups = live.groups.filter((g) => /^(team|svc)-\d+$/.test(g.name));
    expect(declaredGroups).toHaveLength(2 * TEAMS);
    expect(declaredGroups.map((g) => g.description.endsWith("revision 2"))).toEqual(
      declaredGroups.map(() => true),
    );
    // A refresh brings any stale hydrated copies up to date; then state equals the service.
    const refreshed = await ctx.stack.refresh();
    expect(refreshed.error, refreshed.output).toBeUndefined();
    expect(refreshed.changes.map((s) => `${s.op} ${s.name}`).sort()).toEqual(
      afterUpdate.staleHydrated.map((urn) => `refresh-update ${nameOfUrn(urn)}`).sort(),
    );
    expect(await reconcileWithService()).toEqual(CLEAN);

    const entries = [...createEntries, ...updateEntries];
    recordFigures({
      id: "dropped-after-create",
      engine: engineLabel(ctx.stack),
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources, then an update of ${3 * TEAMS}, with answers dropped`,
      injected: `connection closed after handling on ${DROP_RATE * 100}% of POSTs and PATCHes, before handling on 10% of GETs`,
      operations: created.steps.length + updated.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: afterUpdate.lost.length,
      duplicates: afterUpdate.duplicates.length,
      notes: {
        "creates answered by a dropped connection": droppedCreates.length,
        "updates answered by a dropped connection": droppedUpdates.length,
        "objects created twice": 0,
        "create run": `${createEntries.length} requests, ${((createdAt - started) / 1000).toFixed(1)} s`,
      },
      durationMs: Date.now() - started,
    });
  });
});
