/**
 * The API token expires in the middle of a long run: a workload deploys as an identity
 * it assumes by token exchange, and the emulator clock jumps past the token's one-hour
 * lifetime twice while the deployment (on the real Pulumi engine) runs. Each time the
 * provider's client gets a 401 (one per request in flight), exchanges its OIDC token
 * again, once, and repeats each refused request: no step fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../../harness/emulator";
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

const TEAMS = 10;
/** Past the one-hour lifetime of an exchanged API token. */
const JUMP_SECONDS = 2 * 60 * 60;
/** Creates after which the clock jumps. */
const JUMP_AFTER_CREATES = [15, 35];

const ctx = useScenario({
  stack: (emu) => bigOrgStack({ name: "reliability-token-expiry", emulator: emu, teams: TEAMS }),
  prepare: async ({ emu, client, stack }) => {
    // A workload identity of the emulator's test issuer, owner of the organisation.
    const deployer = await client.iam.identities.create(emu.rootGroupUid, {
      name: "deployer",
      claimMatch: { issuer: emu.issuer, subject: "ci-deployer" },
    });
    const owner = (await client.iam.roles.list({ name: "owner" })).items[0];
    await client.iam.roleBindings.create(emu.rootGroupUid, {
      identityUid: deployer.uid,
      roleUid: owner.uid,
    });
    // The platform's OIDC token outlives both jumps; the exchanged API token does not.
    const oidcTokenFile = path.join(stack.dir, "oidc-token");
    fs.writeFileSync(
      oidcTokenFile,
      await emu.oidcToken("ci-deployer", { ttlSeconds: 4 * JUMP_SECONDS }),
      { mode: 0o600 },
    );
    // The stack deploys as that identity: no static token (an empty one counts as unset).
    await stack.setConfig("irm:token", "", true);
    await stack.setConfig("irm:identity", deployer.uid);
    await stack.setConfig("irm:identityTokenFile", oidcTokenFile);
  },
});

/** Resolves once the request log shows `creates` successful POSTs. */
async function waitForCreates(creates: number, deadline: number): Promise<void> {
  for (;;) {
    const entries = await ctx.emu.requests();
    if (entries.filter((e) => e.method === "POST" && e.status === 200).length >= creates) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${creates} creates before the deadline`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("an API token that expires in the middle of a run", () => {
  it("is exchanged again after each 401 and no step fails", { timeout: 600_000 }, async () => {
    const started = Date.now();
    // The run clears the log as it starts; clearing first keeps the set-up's writes out.
    await ctx.emu.clearRequests();
    const run = ctx.stack.up();
    const jumpsAt: number[] = [];
    try {
      for (const creates of JUMP_AFTER_CREATES) {
        await waitForCreates(creates, Date.now() + 120_000);
        jumpsAt.push((await ctx.emu.requests()).length);
        await ctx.emu.advanceClock(JUMP_SECONDS);
      }
    } finally {
      // Whatever happened above, let the run finish before the emulator stops.
      await run.catch(() => undefined);
    }
    const result = await run;
    expect(result.error, result.output).toBeUndefined();
    expect(result.changes.filter((s) => s.op !== "create")).toEqual([]);
    const state = await ctx.stack.resources();
    expect(countsByType(state)).toEqual(expectedCounts(TEAMS));

    const entries = await ctx.emu.requests();
    const exchanges = entries.filter((e) => e.path === "/sts/exchange");
    const rejected = entries.filter((e) => e.status === 401);
    expect(exchanges.every((e) => e.status === 200)).toBe(true);
    // Before the first jump nothing is refused: the program's lookups and the provider
    // host each exchanged once at their start.
    expect(entries.slice(0, jumpsAt[0]).filter((e) => e.status === 401)).toEqual([]);
    // After each jump: the requests sent with the expired token are refused (one, or a
    // few when several steps were running; one may even land after the exchange it was
    // sent before), the first refusal brings one exchange that serves them all (the SDK
    // shares one fetch and never re-fetches for a token it already replaced), and every
    // refused request is repeated with the new token and succeeds.
    jumpsAt.forEach((at, i) => {
      const window: LogEntry[] = entries.slice(at, jumpsAt[i + 1] ?? entries.length);
      expect(window.filter((e) => e.path === "/sts/exchange")).toHaveLength(1);
      const exchangeAt = window.findIndex((e) => e.path === "/sts/exchange");
      const refused = window.map((e, index) => ({ ...e, index })).filter((e) => e.status === 401);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0].index).toBeLessThan(exchangeAt);
      for (const request of refused) {
        const repeated = window.some(
          (e, index) =>
            index > Math.max(request.index, exchangeAt) &&
            e.method === request.method &&
            e.path === request.path &&
            e.status === 200,
        );
        expect(repeated, `${request.method} ${request.path} repeated`).toBe(true);
      }
    });
    expect(entries.filter((e) => e.status !== 200 && e.status !== 401)).toEqual([]);

    const outcome = reconcile(state, await serviceSnapshot(ctx.client, ctx.emu.rootGroupUid));
    expect(outcome).toEqual(CLEAN);
    recordFigures({
      id: "token-expiry",
      engine: engineLabel(ctx.stack),
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources as a workload identity (token exchange)`,
      injected: `emulator clock moved ${JUMP_SECONDS / 3600} h forward twice mid-run (API tokens live 1 h)`,
      operations: result.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: {
        "token exchanges": exchanges.length,
        "requests refused with the expired token": rejected.length,
        "failed steps": 0,
      },
      durationMs: Date.now() - started,
    });
  });
});
