/**
 * A create that times out while the service is still working on it: the provider's
 * request waits behind a latency spike longer than the client's timeout, so the SDK
 * reports the outcome as unknown. A look-up right away finds nothing yet; the
 * provider must keep looking (it backs off for at least ten seconds) instead of
 * creating again, or the first request completes too and the object exists twice.
 * The create runs as users run it: `pulumi up` on the real engine, the provider host
 * from the installed package.
 * A dropped connection after the service acted is covered by
 * dropped-connections.test.ts: there the first look-up finds the object.
 */
import { describe, expect, it } from "vitest";
import { createEngineStack } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import { CLEAN, FIXTURES, reconcile, serviceSnapshot } from "../../support/reliability/org";
import { useScenario } from "../../support/reliability/scenario";

/** Client timeout of the provider host in this file; the spike is longer. */
const TIMEOUT_MS = 1000;
const SPIKE_MS = 2500;
const NAME = "slow team";

const ctx = useScenario({
  stack: (emu) =>
    createEngineStack({
      name: "reliability-timed-out-create",
      program: FIXTURES.oneGroup,
      emulator: emu,
      projectConfig: { parentUid: emu.rootGroupUid, name: NAME },
      env: { IRM_TIMEOUT_MS: String(TIMEOUT_MS) },
    }),
});

describe("a create that times out while the service still works on it", () => {
  it("is found once the first request completes, and not created again", {
    timeout: 300_000,
  }, async () => {
    const started = Date.now();
    await ctx.emu.fault({ match: { method: "POST" }, latencyMs: SPIKE_MS, count: 1 });
    const result = await ctx.stack.up();
    expect(result.error, result.output).toBeUndefined();
    expect(result.changes.map((s) => `${s.op} ${s.name}`)).toEqual(["create slow-team"]);
    // Give a second create, had one been sent, time to land before counting.
    await new Promise((resolve) => setTimeout(resolve, SPIKE_MS + 500));
    const log = await ctx.emu.requests();
    const page = await ctx.client.iam.groups.list({ childrenOf: ctx.emu.rootGroupUid, name: NAME });
    expect(page.items.map((g) => g.uid)).toEqual([ctx.stack.uidOf("slow-team")]);
    const posts = log.filter((e) => e.method === "POST");
    const lookups = log.filter((e) => e.method === "GET" && e.query.includes("name="));
    expect(posts.map((e) => e.status)).toEqual([200]);
    // At least one look-up came back empty before the delayed create finished, and the
    // provider kept looking rather than creating again.
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    const outcome = reconcile(
      await ctx.stack.resources(),
      await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid),
    );
    expect(outcome).toEqual(CLEAN);

    recordFigures({
      id: "timed-out-create",
      engine: engineLabel(ctx.stack),
      title: "One group created through the provider, its create outlasting the client timeout",
      injected: `${SPIKE_MS} ms latency on the create, client timeout ${TIMEOUT_MS} ms`,
      operations: result.steps.length,
      requests: log.length,
      byStatus: countByStatus(log),
      lost: outcome.lost.length,
      duplicates: page.items.length - 1,
      notes: { "creates sent": posts.length, "look-ups by name": lookups.length },
      durationMs: Date.now() - started,
    });
  });
});
