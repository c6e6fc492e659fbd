/**
 * Token exchange with OIDC tokens of the emulator's own issuer, refresh of an
 * expired token after moving the emulator clock, and the one-refresh rule on 401.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import {
  exchangeTokenSource,
  type Identity,
  PermissionDeniedError,
  type SdkEvent,
  UnauthenticatedError,
} from "../../sdk";
import {
  requestLines as allRequestLines,
  clientFor,
  closeClients,
  failure,
} from "../support/sdk-helpers";

let emu: TestEmulator;
let platformUser: Identity;
let groupsList: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  const { client } = clientFor(emu);
  platformUser = (await client.iam.identities.list({ name: "platform-user" })).items[0];
  groupsList = "GET /iam/v2beta1/groups";
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
});

/** The request log without the test's own calls to the OIDC test issuer. */
async function requestLines(emulator: TestEmulator): Promise<string[]> {
  return (await allRequestLines(emulator)).filter((entry) => !entry.startsWith("POST /oidc/token"));
}

/** The exchange as the SDK sends it: a POST whose form body (not logged) carries aud and identity. */
function exchangeLine(_identityUid: string, status: number): string {
  return `POST /sts/exchange -> ${status}`;
}

function refreshReasons(events: SdkEvent[]): string[] {
  return events.flatMap((event) => (event.type === "token-refresh" ? [event.reason] : []));
}

describe("workload identity", () => {
  it("exchanges an OIDC token from a callback once, then reuses the API token", async () => {
    let oidcCalls = 0;
    const { client, events } = clientFor(emu, {
      identity: platformUser.uid,
      oidcToken: async () => {
        oidcCalls++;
        return emu.oidcToken("alice");
      },
    });
    const first = await client.iam.groups.list();
    expect(first.items.map((g) => g.uid)).toContain(emu.rootGroupUid);
    await client.iam.groups.list();
    expect(oidcCalls).toBe(1);
    expect(await requestLines(emu)).toEqual([
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 200`,
      `${groupsList} -> 200`,
    ]);
    expect(refreshReasons(events)).toEqual(["initial"]);
  });

  it("reads the OIDC token from IRM_IDENTITY_TOKEN_FILE", async () => {
    const dir = await mkdtemp(join(tmpdir(), "irm-sdk-oidc-"));
    const file = join(dir, "token");
    await writeFile(file, `${await emu.oidcToken("bob")}\n`);
    const { client } = clientFor(emu, {
      token: undefined,
      env: { IRM_IDENTITY: platformUser.uid, IRM_IDENTITY_TOKEN_FILE: file },
    });
    await client.iam.roles.list();
    expect(await requestLines(emu)).toEqual([
      exchangeLine(platformUser.uid, 200),
      "GET /iam/v2beta1/roles -> 200",
    ]);
  });

  it("fails clearly when the OIDC subject does not match the identity", async () => {
    const owner = clientFor(emu).client;
    const strict = await owner.iam.identities.create(emu.rootGroupUid, {
      name: "only carol",
      claimMatch: { issuer: emu.issuer, subject: "carol" },
    });
    await emu.clearRequests();
    const oidc = await emu.oidcToken("mallory");
    const { client } = clientFor(emu, { identity: strict.uid, oidcToken: async () => oidc });
    const error = await failure(client.iam.groups.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(String(error)).not.toContain(oidc);
    expect(await requestLines(emu)).toEqual([exchangeLine(strict.uid, 403)]);
  });
});

describe("refresh", () => {
  it("an exchanged token expired on the emulator clock: one 401, one exchange, one repeat", async () => {
    const { client, events } = clientFor(emu, {
      identity: platformUser.uid,
      oidcToken: () => emu.oidcToken("alice"),
    });
    await client.iam.groups.list();
    await emu.advanceClock(2 * 3600);
    const page = await client.iam.groups.list();
    expect(page.totalCount).toBeGreaterThan(0);
    expect(await requestLines(emu)).toEqual([
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 200`,
      `${groupsList} -> 401`,
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 200`,
    ]);
    expect(refreshReasons(events)).toEqual(["initial", "rejected"]);
  });

  it("refreshes ahead of exp, without a 401, when the client's clock nears it", async () => {
    // The client's clock starts where the emulator's is (earlier tests moved it on).
    let clientNow = Date.parse(await emu.advanceClock(0));
    const events: SdkEvent[] = [];
    const { client } = clientFor(emu, {
      logger: (event) => events.push(event),
      tokenSource: exchangeTokenSource({
        identity: platformUser.uid,
        oidcToken: () => emu.oidcToken("alice"),
        refreshAheadMs: 5 * 60_000,
        now: () => clientNow,
      }),
    });
    await client.iam.groups.list();
    // 57 minutes later on both clocks: inside the 5-minute window before the 1-hour exp.
    await emu.advanceClock(57 * 60);
    clientNow += 57 * 60_000;
    await client.iam.groups.list();
    expect(await requestLines(emu)).toEqual([
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 200`,
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 200`,
    ]);
    expect(refreshReasons(events)).toEqual(["initial", "expiring"]);
  });

  it("concurrent callers after expiry share one refresh", async () => {
    const { client } = clientFor(emu, {
      identity: platformUser.uid,
      oidcToken: () => emu.oidcToken("alice"),
    });
    await client.iam.roles.list();
    await emu.advanceClock(2 * 3600);
    await emu.clearRequests();
    await Promise.all(Array.from({ length: 4 }, () => client.iam.roles.list()));
    const lines = await requestLines(emu);
    expect(lines.filter((l) => l.startsWith("POST /sts/exchange"))).toHaveLength(1);
    expect(lines.filter((l) => l.endsWith("-> 401"))).toHaveLength(4);
    expect(lines.filter((l) => l === "GET /iam/v2beta1/roles -> 200")).toHaveLength(4);
  });

  it("a 401 that persists: exactly one refresh and one repeat, never a loop", async () => {
    const { client, events } = clientFor(emu, {
      identity: platformUser.uid,
      oidcToken: () => emu.oidcToken("alice"),
    });
    await emu.fault({ match: { path: "/iam/v2beta1/groups" }, status: 401, count: 0 });
    const error = await failure(client.iam.groups.list());
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(await requestLines(emu)).toEqual([
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 401`,
      exchangeLine(platformUser.uid, 200),
      `${groupsList} -> 401`,
    ]);
    expect(refreshReasons(events)).toEqual(["initial", "rejected"]);
  });

  it("a static token that is rejected is not retried", async () => {
    // An emulator of its own: past the bootstrap token's 30 days, that token is over for
    // every later test of the same emulator, whatever order they run in.
    const own = await startTestEmulator();
    try {
      const { client } = clientFor(own);
      await own.advanceClock(31 * 24 * 3600);
      await own.clearRequests();
      const error = await failure(client.iam.groups.list());
      expect(error).toBeInstanceOf(UnauthenticatedError);
      expect(String(error)).not.toContain(own.token);
      expect(await requestLines(own)).toEqual([`${groupsList} -> 401`]);
    } finally {
      await own.close();
    }
  });
});
