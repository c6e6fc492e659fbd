/**
 * The API token expires in the middle of a long run: a workload deploys as an identity
 * it assumes by token exchange, and the emulator clock jumps past the token's one-hour
 * lifetime twice while the deployment (on the real Pulumi engine) runs. Each time the
 * provider's client gets a 401, exchanges its OIDC token again, and repeats the request:
 * no step fails.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IrmClient } from "../../../sdk/index";
import { type LogEntry, startTestEmulator, type TestEmulator } from "../../support/emulator";
import type { EngineStack } from "../../support/engine-stack";
import { engineLabel } from "../support/engine-label";
import { countByStatus, recordFigures } from "../support/figures";
import {
  bigOrgStack,
  CLEAN,
  countsByType,
  expectedCounts,
  RESOURCES_PER_TEAM,
  reconcile,
  serviceSnapshot,
} from "../support/org";

const TEAMS = 10;
/** Past the one-hour lifetime of an exchanged API token. */
const JUMP_SECONDS = 2 * 60 * 60;
/** Creates after which the clock jumps. */
const JUMP_AFTER_CREATES = [15, 35];

let emu: TestEmulator;
let client: IrmClient;
let stack: EngineStack;

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new IrmClient({ baseUrl: emu.url, token: emu.token });
  stack = await bigOrgStack({ name: "reliability-token-expiry", emulator: emu, teams: TEAMS });
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
});

afterAll(async () => {
  await stack?.dispose();
  await client?.close();
  await emu?.close();
});

/** Resolves once the request log shows `creates` successful POSTs. */
async function waitForCreates(creates: number, deadline: number): Promise<void> {
  for (;;) {
    const entries = await emu.requests();
    if (entries.filter((e) => e.method === "POST" && e.status === 200).length >= creates) return;
    if (Date.now() > deadline) throw new Error(`fewer than ${creates} creates before the deadline`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("an API token that expires in the middle of a run", () => {
  it("is exchanged again after each 401 and no step fails", { timeout: 600_000 }, async () => {
    const started = Date.now();
    // The run clears the log as it starts; clearing first keeps the set-up's writes out.
    await emu.clearRequests();
    const run = stack.up();
    const jumpsAt: number[] = [];
    try {
      for (const creates of JUMP_AFTER_CREATES) {
        await waitForCreates(creates, Date.now() + 120_000);
        jumpsAt.push((await emu.requests()).length);
        await emu.advanceClock(JUMP_SECONDS);
      }
    } finally {
      // Whatever happened above, let the run finish before the emulator stops.
      await run.catch(() => undefined);
    }
    const result = await run;
    expect(result.error, result.output).toBeUndefined();
    expect(result.changes.filter((s) => s.op !== "create")).toEqual([]);
    const state = await stack.resources();
    expect(countsByType(state)).toEqual(expectedCounts(TEAMS));

    const entries = await emu.requests();
    const exchanges = entries.filter((e) => e.path === "/sts/exchange");
    const rejected = entries.filter((e) => e.status === 401);
    // The program's lookups and the provider host each exchanged once at the start; each
    // jump then cost the host exactly one 401 and one more exchange, nothing else failed.
    expect(rejected).toHaveLength(JUMP_AFTER_CREATES.length);
    expect(exchanges.every((e) => e.status === 200)).toBe(true);
    for (const at of jumpsAt) {
      const after: LogEntry[] = entries.slice(at);
      const firstRejection = after.findIndex((e) => e.status === 401);
      expect(firstRejection).toBeGreaterThanOrEqual(0);
      expect(after[firstRejection + 1]?.path).toBe("/sts/exchange");
      // The rejected request is repeated, with the same method and path, and succeeds.
      expect(after[firstRejection + 2]).toMatchObject({
        method: after[firstRejection].method,
        path: after[firstRejection].path,
        status: 200,
      });
    }
    expect(entries.filter((e) => e.status !== 200 && e.status !== 401)).toEqual([]);

    const outcome = reconcile(state, await serviceSnapshot(client, emu.rootGroupUid));
    expect(outcome).toEqual(CLEAN);
    recordFigures({
      id: "token-expiry",
      engine: engineLabel(stack),
      title: `Deployment of ${TEAMS * RESOURCES_PER_TEAM} resources as a workload identity (token exchange)`,
      injected: `emulator clock moved ${JUMP_SECONDS / 3600} h forward twice mid-run (API tokens live 1 h)`,
      operations: result.steps.length,
      requests: entries.length,
      byStatus: countByStatus(entries),
      lost: outcome.lost.length,
      duplicates: outcome.duplicates.length,
      notes: { "token exchanges": exchanges.length, "failed steps": 0 },
      durationMs: Date.now() - started,
    });
  });
});
