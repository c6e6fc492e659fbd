/**
 * The emulator's fault controls against the SDK's retry rules; what was sent is
 * read from the emulator's request log (status 0 = connection dropped).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { BadResponseError, OutcomeUnknownError, type RetryEvent } from "../../sdk";
import { clientFor, closeClients, failure } from "../support/sdk-helpers";

let emu: TestEmulator;
let groupsPath: string;
beforeAll(async () => {
  emu = await startTestEmulator();
  groupsPath = `/iam/v2beta1/groups/${emu.rootGroupUid}`;
});
afterAll(async () => {
  await closeClients();
  await emu.close();
});
beforeEach(async () => {
  await emu.clearFaults();
  await emu.clearRequests();
});

async function statuses(): Promise<string[]> {
  return (await emu.requests()).map((entry) => `${entry.method} ${entry.status}`);
}

describe("retried faults", () => {
  it("503 then success: one retry, reported to the logger", async () => {
    const { client, events } = clientFor(emu);
    await emu.fault({ match: { method: "GET", path: groupsPath }, status: 503 });
    const group = await client.iam.groups.get(emu.rootGroupUid);
    expect(group.uid).toBe(emu.rootGroupUid);
    expect(await statuses()).toEqual(["GET 503", "GET 200"]);
    expect(events).toEqual([
      expect.objectContaining({
        type: "retry",
        path: groupsPath,
        retryNumber: 1,
        codeName: "UNAVAILABLE",
      }),
    ]);
  });

  it("503 on a create is retried too: the service did not act", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "POST", path: groupsPath }, status: 503 });
    await client.iam.groups.create(emu.rootGroupUid, { name: "after 503" });
    expect(await statuses()).toEqual(["POST 503", "POST 200"]);
    const found = await client.iam.groups.list({ childrenOf: emu.rootGroupUid, name: "after 503" });
    expect(found.totalCount).toBe(1);
  });

  it("429 with Retry-After: waits the asked time, then succeeds", async () => {
    const { client, events } = clientFor(emu);
    await emu.fault({ match: { method: "GET", path: groupsPath }, status: 429, retryAfter: 1 });
    await client.iam.groups.get(emu.rootGroupUid);
    const log = await emu.requests();
    expect(log.map((entry) => entry.status)).toEqual([429, 200]);
    expect((events[0] as RetryEvent).delayMs).toBe(1000);
    // The second request came at least a second after the first (emulator clock = wall clock here).
    expect(Date.parse(log[1].time) - Date.parse(log[0].time)).toBeGreaterThanOrEqual(990);
  });

  it("a GET whose connection dropped (before or after handling) is retried", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "GET", path: groupsPath }, drop: "after" });
    await emu.fault({ match: { method: "GET", path: groupsPath }, drop: "before" });
    await client.iam.groups.get(emu.rootGroupUid);
    expect(await statuses()).toEqual(["GET 0", "GET 0", "GET 200"]);
  });

  it("a PATCH with an explicit mask whose connection dropped is retried", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "patch drop" });
    await emu.clearRequests();
    await emu.fault({ match: { method: "PATCH" }, drop: "after" });
    const updated = await client.iam.groups.update(
      group.uid,
      { description: "x" },
      { updateMask: ["description"] },
    );
    expect(updated.description).toBe("x");
    expect(await statuses()).toEqual(["PATCH 0", "PATCH 200"]);
  });

  it("a truncated JSON answer to a GET is retried", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "GET", path: groupsPath }, truncate: true });
    await client.iam.groups.get(emu.rootGroupUid);
    expect(await statuses()).toEqual(["GET 200", "GET 200"]);
  });
});

describe("faults that surface", () => {
  it("a POST whose connection dropped after sending is not retried: outcome unknown", async () => {
    const { client, events } = clientFor(emu);
    await emu.fault({ match: { method: "POST", path: groupsPath }, drop: "after" });
    const error = await failure(
      client.iam.groups.create(emu.rootGroupUid, { name: "maybe created" }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).mayStillBeRunning).toBe(false);
    expect(await statuses()).toEqual(["POST 0"]);
    expect(events).toEqual([]);
    // It did happen: the caller reconciles by looking it up.
    const found = await client.iam.groups.list({
      childrenOf: emu.rootGroupUid,
      name: "maybe created",
    });
    expect(found.totalCount).toBe(1);
  });

  it("a POST dropped before handling looks the same to the client and is not retried either", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "POST", path: groupsPath }, drop: "before" });
    const error = await failure(
      client.iam.groups.create(emu.rootGroupUid, { name: "never created" }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(await statuses()).toEqual(["POST 0"]);
  });

  it("an HTML 502 from a proxy: a bad-response error after the bounded retries", async () => {
    const { client, events } = clientFor(emu, { retry: { retries: 2 } });
    await emu.fault({
      match: { method: "GET", path: groupsPath },
      status: 502,
      html: true,
      count: 0,
    });
    const error = await failure(client.iam.groups.get(emu.rootGroupUid));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error).toMatchObject({ status: 502, codeName: "UNAVAILABLE" });
    expect(String(error)).toMatch(/HTTP 502 \(text\/html[^)]*\), not JSON/);
    expect(await statuses()).toEqual(["GET 502", "GET 502", "GET 502"]);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  });

  it("an HTML 502 after a create took effect: outcome unknown, not retried", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "POST", path: groupsPath }, html: true });
    const error = await failure(
      client.iam.groups.create(emu.rootGroupUid, { name: "behind proxy" }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(await statuses()).toEqual(["POST 502"]);
  });

  it("truncated JSON that keeps coming: a bad-response error naming the problem", async () => {
    const { client } = clientFor(emu, { retry: { retries: 1 } });
    await emu.fault({ match: { method: "GET", path: groupsPath }, truncate: true, count: 0 });
    const error = await failure(client.iam.groups.get(emu.rootGroupUid));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(String(error)).toMatch(/truncated or invalid JSON/);
    expect(await statuses()).toEqual(["GET 200", "GET 200"]);
  });

  it("retries are bounded in count", async () => {
    const { client } = clientFor(emu, { retry: { retries: 3 } });
    await emu.fault({ match: { method: "GET", path: groupsPath }, status: 503, count: 0 });
    await failure(client.iam.groups.get(emu.rootGroupUid));
    expect(await statuses()).toHaveLength(4);
  });

  it("a NOT_FOUND on a repeated delete is reported faithfully, not retried", async () => {
    const { client } = clientFor(emu);
    const group = await client.iam.groups.create(emu.rootGroupUid, { name: "delete twice" });
    await emu.clearRequests();
    // The first delete takes effect but its answer is lost; the retry finds nothing.
    await emu.fault({ match: { method: "DELETE" }, drop: "after" });
    const error = await failure(client.iam.groups.delete(group.uid));
    expect(error).toMatchObject({ codeName: "NOT_FOUND" });
    expect(await statuses()).toEqual(["DELETE 0", "DELETE 404"]);
  });
});

describe("gateway errors on a create", () => {
  beforeEach(async () => {
    await emu.clearFaults();
    await emu.clearRequests();
  });

  it.each([502, 504])(
    "an API-shaped %i to a POST is an unknown outcome, not retried",
    async (status) => {
      const { client } = clientFor(emu);
      await emu.fault({ match: { method: "POST", path: groupsPath }, status });
      const error = await failure(
        client.iam.groups.create(emu.rootGroupUid, { name: `gw ${status}` }),
      );
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect((error as OutcomeUnknownError).status).toBe(status);
      // A gateway timeout may leave the create running behind it; a bad gateway may not.
      expect((error as OutcomeUnknownError).mayStillBeRunning).toBe(status === 504);
      expect(await statuses()).toEqual([`POST ${status}`]);
    },
  );

  it("the same 502 to a GET is retried", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "GET", path: groupsPath }, status: 502 });
    await client.iam.groups.get(emu.rootGroupUid);
    expect(await statuses()).toEqual(["GET 502", "GET 200"]);
  });
});

/** Generous bound for the emulator to finish a request the client gave up on (busy CI machines). */
const WAIT_FOR_EMULATOR = { timeout: 10_000, interval: 50 };

describe("timeouts", () => {
  beforeEach(async () => {
    await emu.clearFaults();
    await emu.clearRequests();
  });

  it("a slow GET times out per attempt and is retried", async () => {
    const { client } = clientFor(emu, { timeoutMs: 100 });
    await emu.fault({ match: { method: "GET", path: groupsPath }, latencyMs: 400 });
    const group = await client.iam.groups.get(emu.rootGroupUid);
    expect(group.uid).toBe(emu.rootGroupUid);
    // The slow request is logged when the emulator finishes it, after the client gave up.
    await vi.waitFor(async () => {
      expect((await emu.requests()).map((entry) => entry.method)).toEqual(["GET", "GET"]);
    }, WAIT_FOR_EMULATOR);
  });

  it("a slow create times out as an unknown outcome, and did happen", async () => {
    const { client } = clientFor(emu);
    await emu.fault({ match: { method: "POST", path: groupsPath }, latencyMs: 300 });
    const error = await failure(
      client.iam.groups.create(emu.rootGroupUid, { name: "slow create" }, { timeoutMs: 50 }),
    );
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(String(error)).toMatch(/timed out/);
    // The service may still be working on it: a caller must not conclude "not made" at once.
    expect((error as OutcomeUnknownError).mayStillBeRunning).toBe(true);
    // The emulator finishes the request after the client gave up: its log shows it then.
    await expect
      .poll(async () => (await emu.requests()).some((entry) => entry.method === "POST"))
      .toBe(true);
    const found = await client.iam.groups.list({
      childrenOf: emu.rootGroupUid,
      name: "slow create",
    });
    expect(found.totalCount).toBe(1);
    expect((await emu.requests()).filter((entry) => entry.method === "POST")).toHaveLength(1);
  });
});
