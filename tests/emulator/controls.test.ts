/** Test controls: request log, faults, clock, rate limit, tokens and seed validation. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../../harness/emulator";
import { type Caller, caller, reasonOf } from "../support/emulator-http";

type Json = Record<string, unknown>;

let emu: TestEmulator;
let owner: Caller;

beforeAll(async () => {
  emu = await startTestEmulator();
  owner = caller(emu.url, emu.token);
});
afterEach(async () => {
  await emu.clearFaults();
  await emu.rateLimit(0);
});
afterAll(() => emu.close());

async function groupNamed(name: string): Promise<Json[]> {
  return (await owner<{ groups: Json[] }>("GET", `/iam/v2beta1/groups?name=${name}`)).body.groups;
}

describe("request log", () => {
  it("records method, raw path, raw query and status of API and auth requests, not of controls", async () => {
    await emu.clearRequests();
    await owner("GET", `/iam/v2beta1/groups?page_size=2&order_by=name%20desc`);
    await owner("PATCH", `/iam/v2beta1/groups/${emu.rootGroupUid}?updateMask=description`, {
      body: { description: "logged" },
    });
    await owner("GET", `/iam/v2beta1/groups/${emu.rootGroupUid}%2F0000000000000000`);
    await emu.oidcToken("someone");
    const log = await emu.requests();
    expect(log.map(({ method, path, query, status }) => ({ method, path, query, status }))).toEqual(
      [
        {
          method: "GET",
          path: "/iam/v2beta1/groups",
          query: "page_size=2&order_by=name%20desc",
          status: 200,
        },
        {
          method: "PATCH",
          path: `/iam/v2beta1/groups/${emu.rootGroupUid}`,
          query: "updateMask=description",
          status: 200,
        },
        {
          method: "GET",
          path: `/iam/v2beta1/groups/${emu.rootGroupUid}%2F0000000000000000`,
          query: "",
          status: 404,
        },
        { method: "POST", path: "/oidc/token", query: "", status: 200 },
      ],
    );
    expect(log[1].seq).toBeGreaterThan(log[0].seq);
    expect(log[0].time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    await emu.clearRequests();
    expect(await emu.requests()).toEqual([]);
  });
});

describe("faults", () => {
  it("a status fault answers that code for the next N matching requests, then clears itself", async () => {
    await emu.fault({
      match: { method: "GET", path: "/iam/v2beta1/groups" },
      status: 503,
      count: 2,
    });
    const first = await owner<Json>("GET", "/iam/v2beta1/groups");
    expect(first.status).toBe(503);
    expect(first.body.code).toBe(14);
    expect(reasonOf(first.body)).toBe("UNAVAILABLE");
    // Another method does not match and does not use up the fault.
    expect(
      (
        await owner("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
          body: { name: "fault 1" },
        })
      ).status,
    ).toBe(200);
    expect((await owner("GET", "/iam/v2beta1/groups")).status).toBe(503);
    expect((await owner("GET", "/iam/v2beta1/groups")).status).toBe(200);
  });

  it("429 carries Retry-After and RESOURCE_EXHAUSTED", async () => {
    await emu.fault({ match: { path: "/iam/" }, status: 429, retryAfter: 7 });
    const reply = await owner<Json>("GET", "/iam/v2beta1/roles");
    expect(reply.status).toBe(429);
    expect(reply.headers.get("retry-after")).toBe("7");
    expect(reply.body.code).toBe(8);
  });

  it("html answers a proxy-like HTML page; truncate a cut-off JSON body", async () => {
    await emu.fault({ match: { pathRegex: "^/iam/v2beta1/roles$" }, status: 502, html: true });
    const html = await owner("GET", "/iam/v2beta1/roles");
    expect(html.status).toBe(502);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.text).toMatch(/<html>/);
    await emu.fault({ match: { path: "/iam/v2beta1/roles" }, truncate: true });
    const cut = await owner("GET", "/iam/v2beta1/roles");
    expect(cut.status).toBe(200);
    expect(cut.headers.get("content-type")).toMatch(/^application\/json/);
    expect(cut.body).toBeUndefined();
    expect(() => JSON.parse(cut.text)).toThrow();
    expect(cut.text.length).toBeGreaterThan(0);
  });

  it("drop before closes the socket without effect; drop after applies the effect first", async () => {
    await emu.clearRequests();
    await emu.fault({ match: { method: "POST", path: "/iam/v2beta1/groups/" }, drop: "before" });
    await expect(
      owner("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
        body: { name: "dropped-before" },
      }),
    ).rejects.toThrow();
    expect(await groupNamed("dropped-before")).toEqual([]);
    await emu.fault({ match: { method: "POST", path: "/iam/v2beta1/groups/" }, drop: "after" });
    await expect(
      owner("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, { body: { name: "dropped-after" } }),
    ).rejects.toThrow();
    expect(await groupNamed("dropped-after")).toHaveLength(1);
    const statuses = (await emu.requests())
      .filter((entry) => entry.method === "POST")
      .map((entry) => entry.status);
    expect(statuses).toEqual([0, 0]);
  });

  it("count 0 lasts until cleared; probability 0 never fires; latency still answers", async () => {
    await emu.fault({ match: { path: "/registry/" }, status: 500, count: 0 });
    for (let i = 0; i < 3; i++)
      expect((await owner("GET", "/registry/v2beta1/repos")).status).toBe(500);
    await emu.clearFaults();
    expect((await owner("GET", "/registry/v2beta1/repos")).status).toBe(200);
    await emu.fault({ match: {}, status: 500, probability: 0, count: 0 });
    expect((await owner("GET", "/registry/v2beta1/repos")).status).toBe(200);
    await emu.clearFaults();
    await emu.fault({ match: { path: "/registry/" }, latencyMs: 30 });
    expect((await owner("GET", "/registry/v2beta1/repos")).status).toBe(200);
  });

  it("GET /emulator/faults lists each request a fault was taken by, while a latency still holds it", async () => {
    const held = await emu.fault({
      match: { method: "GET", path: "/iam/v2beta1/roles" },
      latencyMs: 1500,
      count: 2,
    });
    const unrelated = await emu.fault({ match: { path: "/registry/never" }, status: 500 });
    await emu.clearRequests();
    const answered = owner("GET", "/iam/v2beta1/roles?page_size=1");
    await emu.untilFaultTaken(held, 1, 1000);
    // Taken, and still held: the request log has no entry for it yet.
    expect(await emu.requests()).toEqual([]);
    const reply = await caller(emu.url, null)<{ taken: Json[] }>("GET", "/emulator/faults");
    expect(reply.status).toBe(200);
    const mine = reply.body.taken.filter((taken) => taken.id === held || taken.id === unrelated);
    expect(mine).toEqual([{ id: held, method: "GET", path: "/iam/v2beta1/roles" }]);
    expect((await answered).status).toBe(200);
    // DELETE /emulator/faults clears the faults, not what they were taken by.
    await emu.clearFaults();
    expect((await emu.faultsTaken()).filter((taken) => taken.id === held)).toHaveLength(1);
    await expect(emu.untilFaultTaken(held, 2, 100)).rejects.toThrow(
      `fault ${held} was applied to 1 request(s) within 100 ms, not 2`,
    );
  });

  it("a malformed fault is INVALID_ARGUMENT naming the field", async () => {
    const reply = await caller(emu.url, null)<Json>("POST", "/emulator/faults", {
      body: { drop: "sideways" },
    });
    expect(reply.status).toBe(400);
    expect(String(reply.body.message)).toMatch(/^Invalid argument: drop: /);
  });
});

describe("clock, rate limit, tokens, seed", () => {
  it("the clock moves forward and drives timestamps", async () => {
    const before = Date.now();
    const now = await emu.advanceClock(86_400);
    expect(Date.parse(now) - before).toBeGreaterThanOrEqual(86_400_000);
    const created = await owner<Json>("POST", `/iam/v2beta1/groups/${emu.rootGroupUid}`, {
      body: { name: "later" },
    });
    expect(Date.parse(created.body.createTime as string)).toBeGreaterThanOrEqual(Date.parse(now));
  });

  it("rate limiting answers 429 with Retry-After once the budget of the second is spent", async () => {
    await emu.rateLimit(2, 3);
    // Quick requests: some one-second window soon sees a third request.
    const statuses: number[] = [];
    const retryAfter: Array<string | null> = [];
    for (let i = 0; i < 50 && !statuses.includes(429); i++) {
      const reply = await owner("GET", "/iam/v2beta1/roles");
      statuses.push(reply.status);
      retryAfter.push(reply.headers.get("retry-after"));
    }
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses).toContain(429);
    expect(retryAfter[statuses.indexOf(429)]).toBe("3");
    await emu.rateLimit(0);
    expect((await owner("GET", "/iam/v2beta1/roles")).status).toBe(200);
  });

  it("minting a token for an unknown identity is NOT_FOUND; seed validates before changing anything", async () => {
    const control = caller(emu.url, null);
    const missing = await control<Json>("POST", "/emulator/tokens", {
      body: { identityUid: `${emu.rootGroupUid}/0000000000000000` },
    });
    expect(missing.status).toBe(404);
    const bad = await control<Json>("POST", "/emulator/seed", {
      body: {
        groups: [
          { parentUid: emu.rootGroupUid, name: "fine-seed" },
          { parentUid: emu.rootGroupUid, name: "BAD" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(String(bad.body.message)).toMatch(/^Invalid argument: groups\[1\]\.name: /);
    expect(await groupNamed("fine-seed")).toEqual([]);
  });
});

describe("request log bound", () => {
  it("keeps only the newest entries up to requestLogLimit", async () => {
    const small = await startTestEmulator({ requestLogLimit: 3 });
    try {
      const api = caller(small.url, small.token);
      for (let i = 0; i < 5; i++) await api("GET", `/iam/v2beta1/groups?page_size=${i + 1}`);
      const log = await small.requests();
      expect(log.map((entry) => entry.query)).toEqual([
        "page_size=3",
        "page_size=4",
        "page_size=5",
      ]);
      expect(log.map((entry) => entry.seq)).toEqual([3, 4, 5]);
    } finally {
      await small.close();
    }
  });
});
