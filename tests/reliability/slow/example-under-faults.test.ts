/**
 * The shipped example `examples/org-hierarchy`, as a user runs it (the unmodified
 * program on the real Pulumi engine, the package installed from its packed tarball),
 * deployed and destroyed while the emulator fails a fifth of API requests with 503 and
 * drops the answer of a fifth of creates after acting on them: the run completes, each
 * object exists once, state equals the service.
 */
import { describe, expect, it } from "vitest";
import { createEngineStack } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import { CLEAN, opsCount, reconcile, serviceSnapshot } from "../../support/reliability/org";
import { useScenario } from "../../support/reliability/scenario";

const ctx = useScenario({
  stack: (emu) =>
    createEngineStack({
      name: "reliability-example-org-hierarchy",
      program: "org-hierarchy",
      emulator: emu,
      projectConfig: { rootGroupUid: emu.rootGroupUid },
      env: { IRM_MAX_RETRIES: "10" },
    }),
});

/** 503 on a fifth of API requests. */
function fail503(): Promise<string> {
  return ctx.emu.fault({
    match: { pathRegex: "^/(iam|registry)/" },
    status: 503,
    probability: 0.2,
    count: 0,
  });
}

describe("examples/org-hierarchy under faults", () => {
  it("deploys and destroys with every object once and state equal to the service", {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    await ctx.emu.fault({ match: { method: "POST" }, drop: "after", probability: 0.2, count: 0 });
    await fail503();

    const created = await ctx.stack.up();
    expect(created.error, created.output).toBeUndefined();
    expect(created.steps.length).toBeGreaterThan(0);
    expect(created.steps.every((s) => s.op === "create")).toBe(true);
    const createEntries = await ctx.emu.requests();
    const createdAt = Date.now();
    await ctx.emu.clearFaults();
    const state = await ctx.stack.resources();
    expect(state).toHaveLength(created.steps.length);
    const outcome = reconcile(state, await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid));
    expect(outcome).toEqual(CLEAN);

    await fail503();
    const destroyed = await ctx.stack.destroy();
    const destroyEntries = await ctx.emu.requests();
    await ctx.emu.clearFaults();
    expect(destroyed.error, destroyed.output).toBeUndefined();
    expect(opsCount(destroyed.steps, "delete")).toBe(state.length);
    expect(await ctx.stack.resources()).toEqual([]);
    const left = await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid);
    const ids = new Set(state.map((r) => r.id));
    const remaining = [...left.groups, ...left.identities, ...left.bindings].filter((o) =>
      ids.has(o.uid),
    );
    expect(remaining).toEqual([]);
    const entries = [...createEntries, ...destroyEntries];

    recordFigures({
      id: "example-under-faults",
      engine: engineLabel(ctx.stack),
      title: `examples/org-hierarchy (${state.length} resources), deployed and destroyed`,
      injected:
        "503 on 20% of API requests; on deploy also the connection closed after handling on 20% of creates",
      operations: created.steps.length + destroyed.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "creates answered by a dropped connection": createEntries.filter(
          (e) => e.method === "POST" && e.status === 0,
        ).length,
        "up run": `${createEntries.length} requests, ${((createdAt - started) / 1000).toFixed(1)} s`,
        "destroy run": `${destroyEntries.length} requests, ${((Date.now() - createdAt) / 1000).toFixed(1)} s`,
      },
      durationMs: Date.now() - started,
    });
  });
});
