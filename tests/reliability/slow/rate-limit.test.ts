/**
 * 429 with `Retry-After` on a burst: the SDK waits exactly what the service asks (never
 * less), every request of the burst completes once, and a whole deployment through the
 * provider, on the real Pulumi engine, completes under a tight rate limit.
 */
import { describe, expect, it } from "vitest";
import { IrmClient, type SdkEvent } from "../../../sdk/index";
import type { EngineStack, RunOutcome } from "../../support/engine-stack";
import { engineLabel } from "../../support/reliability/engine-label";
import { countByStatus, recordFigures } from "../../support/reliability/figures";
import {
  bigOrgStack,
  CLEAN,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../../support/reliability/org";
import { useScenario } from "../../support/reliability/scenario";

const BURST = 60;
const REQUESTS_PER_SECOND = 10;
const RETRY_AFTER_SECONDS = 1;

const ctx = useScenario({ cleanup: ({ emu }) => emu.rateLimit(0) });

describe("429 with Retry-After", () => {
  it(`a burst of ${BURST} concurrent creates waits as told and creates each group once`, async () => {
    const started = Date.now();
    const events: SdkEvent[] = [];
    const client = new IrmClient({
      baseUrl: ctx.emu.url,
      token: ctx.emu.token,
      // Enough retries for the last of the burst: it waits through BURST / rate windows.
      retry: { retries: 12 },
      logger: (event) => events.push(event),
    });
    const parent = await client.iam.groups.create(ctx.emu.rootGroupUid, { name: "burst" });
    await ctx.emu.clearRequests();
    await ctx.emu.rateLimit(REQUESTS_PER_SECOND, RETRY_AFTER_SECONDS);
    try {
      const names = Array.from({ length: BURST }, (_, i) => `burst-${i}`);
      const created = await Promise.all(
        names.map((name) => client.iam.groups.create(parent.uid, { name })),
      );
      expect(created.map((g) => g.name)).toEqual(names);
    } finally {
      await ctx.emu.rateLimit(0);
    }
    const entries = await ctx.emu.requests();
    const limited = entries.filter((e) => e.status === 429);
    const retries = events.filter((e) => e.type === "retry");
    // The limit really bit, and every 429 was followed by a wait of exactly Retry-After.
    expect(limited.length).toBeGreaterThanOrEqual(BURST - REQUESTS_PER_SECOND);
    expect(retries).toHaveLength(limited.length);
    expect(retries.every((e) => e.type === "retry" && e.status === 429)).toBe(true);
    expect(new Set(retries.map((e) => (e.type === "retry" ? e.delayMs : -1)))).toEqual(
      new Set([RETRY_AFTER_SECONDS * 1000]),
    );
    // Each create was acted on once: the service holds exactly the burst.
    const children = await client.iam.groups.list({ childrenOf: parent.uid, pageSize: 200 });
    expect(children.totalCount).toBe(BURST);
    expect(new Set(children.items.map((g) => g.name)).size).toBe(BURST);
    expect(entries.filter((e) => e.method === "POST" && e.status === 200)).toHaveLength(BURST);
    await client.close();

    recordFigures({
      id: "rate-limit-burst",
      title: `Burst of ${BURST} concurrent group creates from one SDK client`,
      injected: `rate limit of ${REQUESTS_PER_SECOND} requests/s answering 429 with Retry-After: ${RETRY_AFTER_SECONDS}`,
      operations: BURST,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: BURST - children.totalCount,
      duplicates: children.totalCount - new Set(children.items.map((g) => g.name)).size,
      notes: {
        "retries after a 429": retries.length,
        "retries that waited less than Retry-After": retries.filter(
          (e) => e.type === "retry" && e.delayMs < RETRY_AFTER_SECONDS * 1000,
        ).length,
      },
      durationMs: Date.now() - started,
    });
  });

  it("a deployment through the provider completes under a limit of 5 requests/s", {
    timeout: 600_000,
  }, async () => {
    const started = Date.now();
    const teams = 4;
    const client = new IrmClient({ baseUrl: ctx.emu.url, token: ctx.emu.token });
    const stack: EngineStack = await bigOrgStack({
      name: "reliability-rate-limit",
      emulator: ctx.emu,
      teams,
      env: { IRM_MAX_RETRIES: "10" },
    });
    try {
      await ctx.emu.rateLimit(5, RETRY_AFTER_SECONDS);
      let result: RunOutcome;
      try {
        result = await stack.up();
      } finally {
        await ctx.emu.rateLimit(0);
      }
      expect(result.error, result.output).toBeUndefined();
      expect(result.changes.filter((s) => s.op !== "create")).toHaveLength(0);
      const entries = await ctx.emu.requests();
      expect(entries.filter((e) => e.status === 429).length).toBeGreaterThan(0);
      // Every request refused with 429 was sent again; each create succeeded once.
      expect(entries.filter((e) => e.method === "POST" && e.status === 200)).toHaveLength(
        teams * RESOURCES_PER_TEAM,
      );
      const state = await stack.resources();
      expect(countsByType(state)).toEqual(expectedCounts(teams));
      const outcome = reconcile(state, await serviceSnapshot(client, ctx.emu.rootGroupUid));
      expect(outcome).toEqual(CLEAN);

      recordFigures({
        id: "rate-limit-deployment",
        engine: engineLabel(stack),
        title: `Deployment of ${teams * RESOURCES_PER_TEAM} resources through the provider`,
        injected: `rate limit of 5 requests/s answering 429 with Retry-After: ${RETRY_AFTER_SECONDS}`,
        operations: result.steps.length,
        requests: entries.length,
        byStatus: countByStatus(entries),
        lost: outcome.lost.length,
        duplicates: outcome.duplicates.length,
        durationMs: Date.now() - started,
      });
    } finally {
      await client.close();
      await stack.dispose();
    }
  });
});
