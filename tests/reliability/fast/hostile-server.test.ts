/**
 * Servers that answer wrongly: a proxy's HTML 404 or plain-text 502/503, an endless
 * body, cycling page tokens, answers of the wrong shape, a token exchange that says
 * NOT_FOUND, a lost create next to another stack's namesake. Small fake servers on
 * 127.0.0.1 play the hostile parts (each answers with a real `Date` header, as any
 * HTTP server does); the emulator's fault controls play the rest.
 *
 * What must hold: nothing the server did not say is believed. Only the API's own
 * NOT_FOUND for the object's own GET or DELETE means the object is gone; a create is
 * never sent twice when it may have happened; no answer can grow memory without bound
 * or make a listing loop forever; an object that existed before a lost create is never
 * taken over.
 */

import { mkdtemp, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UnsecuredJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../../provider/runtime";
import type { GroupInputs } from "../../../provider/types";
import {
  BadResponseError,
  IrmClient,
  isNotFound,
  OutcomeUnknownError,
  oidcTokenFromGitHubActions,
  UnauthenticatedError,
} from "../../../sdk/index";
import { closeFakeApis, type FakeApi, fakeApi, rejection } from "../../support/fake-api";
import { type ProviderFixture, startProviderFixture } from "../../support/provider-fixture";

const ROOT = "0123456789abcdef0123456789abcdef01234567";
/** Well-formed (a JWT, unexpired): the provider sends it, and it must never show. */
const SECRET = new UnsecuredJWT({ sub: "hostile-test-secret-token-1234567890" })
  .setExpirationTime("1h")
  .encode();

// --- a fake API: tests/support/fake-api.ts ------------------------------

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

let serial = 0;
function groupJson(name: string, createTime: Date, overrides: Record<string, unknown> = {}) {
  serial += 1;
  const time = createTime.toISOString();
  return {
    uid: `${ROOT}/${serial.toString(16).padStart(16, "0")}`,
    name,
    description: "",
    resourceLimits: {},
    verified: false,
    createTime: time,
    updateTime: time,
    ...overrides,
  };
}

function clientOf(api: FakeApi, options: Record<string, unknown> = {}): IrmClient {
  return new IrmClient({
    baseUrl: api.url,
    token: SECRET,
    env: {},
    retry: { minDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
}

/** Configures the provider runtime against `url`, as the host would. */
async function configureProvider(config: Record<string, string>): Promise<void> {
  await runtime.configure({
    config: {
      get: (key) => config[key],
      require: (key) => config[key] ?? "",
    },
  });
}

/** Everything a user could see of an error. */
function shown(error: Error): string {
  return `${error}\n${error.stack}\n${JSON.stringify(error)}\n${String(error.cause ?? "")}`;
}

afterEach(closeFakeApis);

// --- 5. "not found" that is not about the object ----------------------------

describe("a NOT_FOUND that is not about the object never drops it from state", () => {
  let emu: ProviderFixture;
  let group: { uid: string };

  beforeAll(async () => {
    emu = await startProviderFixture();
    group = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "still here" });
  });
  afterAll(async () => {
    await emu?.close();
  });

  it("an HTML 404 from a proxy: refresh fails naming what answered, instead of reporting the object gone", async () => {
    await emu.configureRuntime();
    await emu.clearFaults();
    await emu.fault({
      match: { method: "GET", path: `/iam/v2beta1/groups/${group.uid}` },
      status: 404,
      html: true,
      count: 0,
    });
    const error = await rejection(runtime.group.read(group.uid));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(isNotFound(error)).toBe(false);
    const host = new URL(emu.url).host;
    expect(error.message).toContain(`GET ${host}/iam/v2beta1/groups/${group.uid}`);
    expect(error.message).toContain("HTTP 404");
    expect(error.message).toContain("text/html");
    expect(shown(error)).not.toContain(emu.token);
    await emu.clearFaults();
  });

  it("an HTML 404 to a DELETE: destroy fails instead of reporting success while the object stays", async () => {
    await emu.configureRuntime();
    await emu.clearFaults();
    await emu.fault({
      match: { method: "DELETE", path: `/iam/v2beta1/groups/${group.uid}` },
      status: 404,
      html: true,
      count: 0,
    });
    const error = await rejection(runtime.group.delete(group.uid, {} as never));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("HTTP 404");
    await emu.clearFaults();
    expect((await emu.client.iam.groups.get(group.uid)).uid).toBe(group.uid);
  });

  it("a wrong irm:apiUrl answering 404 pages: refresh fails, it does not empty the state", async () => {
    const wrong = await fakeApi((_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html><body>Not Found</body></html>");
    });
    await configureProvider({ "irm:apiUrl": `${wrong.url}/typo`, "irm:token": SECRET });
    const error = await rejection(runtime.group.read(group.uid));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain(`${new URL(wrong.url).host}/typo/iam/v2beta1/groups/`);
    expect(shown(error)).not.toContain(SECRET);
  });

  it("behind a base URL with a path, the API's own NOT_FOUND for the object still means gone", async () => {
    const api = await fakeApi((_req, res) =>
      json(res, 404, {
        code: 5,
        message: "Not found",
        details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "NOT_FOUND" }],
      }),
    );
    await configureProvider({ "irm:apiUrl": `${api.url}/irm`, "irm:token": SECRET });
    expect(await runtime.group.read(`${ROOT}/00000000000000aa`)).toEqual({ id: "" });
    expect(api.requests).toEqual([`GET /irm/iam/v2beta1/groups/${ROOT}/00000000000000aa`]);
  });

  it("a mistyped irm:identity (the exchange answers NOT_FOUND): refresh fails, saying so", async () => {
    const dir = await mkdtemp(join(tmpdir(), "irm-hostile-"));
    const file = join(dir, "oidc-token");
    const oidc = await emu.oidcToken("alice");
    await writeFile(file, oidc);
    const mistyped = `${emu.rootGroupUid}/00000000000000ff`;
    await emu.configureRuntime({
      "irm:token": "",
      "irm:identity": mistyped,
      "irm:identityTokenFile": file,
    });
    const error = await rejection(runtime.group.read(group.uid));
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(isNotFound(error)).toBe(false);
    expect(error.message).toContain(`Token exchange for identity ${mistyped} failed`);
    expect(error.message).toContain("/sts/exchange answered HTTP 404 NOT_FOUND");
    expect(shown(error)).not.toContain(oidc);
    // And a delete does not report success either.
    await expect(runtime.group.delete(group.uid, {} as never)).rejects.toThrow(/Token exchange/);
    expect((await emu.client.iam.groups.get(group.uid)).uid).toBe(group.uid);
  });

  it("an HTML 503 to a create (emulator fault): not retried blindly; the provider looks first, then creates once", async () => {
    await emu.configureRuntime();
    await emu.clearFaults();
    await emu.fault({
      match: { method: "POST", path: `/iam/v2beta1/groups/${emu.rootGroupUid}` },
      status: 503,
      html: true,
    });
    await emu.clearRequests();
    const name = "behind a proxy";
    const created = await runtime.group.create({
      parentUid: emu.rootGroupUid,
      name,
      description: "",
    });
    const log = (await emu.requests()).map((r) => `${r.method} ${r.status}`);
    expect(log).toEqual(["POST 503", "GET 200", "POST 200"]);
    const matches = await emu.client.iam.groups.list({ childrenOf: emu.rootGroupUid, name });
    expect(matches.items.map((g) => g.uid)).toEqual([created.id]);
  });

  it("the API's own NOT_FOUND for the object's own GET still means it is gone", async () => {
    await emu.configureRuntime();
    await emu.clearFaults();
    const doomed = await emu.client.iam.groups.create(emu.rootGroupUid, { name: "doomed" });
    await emu.client.iam.groups.delete(doomed.uid);
    expect(await runtime.group.read(doomed.uid)).toEqual({ id: "" });
    await runtime.group.delete(doomed.uid, {} as never);
  });
});

// --- 6. never adopt someone else's object after a lost create ---------------

describe("a lost create never takes over an object that existed before it", () => {
  const inputs: GroupInputs = { parentUid: ROOT, name: "platform", description: "" };

  /** A server whose POST is handled as `onPost` says, then its answer lost. */
  async function lostCreateServer(
    existing: ReturnType<typeof groupJson>[],
    onPost: (made: ReturnType<typeof groupJson>[]) => void,
    options: { sendDate?: boolean } = {},
  ) {
    const objects = [...existing];
    let posts = 0;
    const api = await fakeApi((req, res, body) => {
      res.sendDate = options.sendDate ?? true;
      if (req.method === "POST") {
        posts += 1;
        if (posts === 1) {
          onPost(objects);
          req.socket.destroy(); // the answer is lost
          return;
        }
        const made = groupJson(JSON.parse(body).name, new Date());
        objects.push(made);
        json(res, 200, made);
        return;
      }
      const name = new URL(req.url ?? "/", "http://x").searchParams.get("name");
      const items = objects.filter((g) => g.name === name);
      json(res, 200, { groups: items, totalCount: String(items.length), skipped: 0 });
    });
    await configureProvider({ "irm:apiUrl": api.url, "irm:token": SECRET });
    return api;
  }

  it("another stack's namesake made two minutes earlier is never adopted: the create is sent again", async () => {
    const namesake = groupJson("platform", new Date(Date.now() - 120_000));
    const api = await lostCreateServer([namesake], () => {});
    const created = await runtime.group.create(inputs);
    expect(created.id).not.toBe(namesake.uid);
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(2);
  });

  it("its own object, made by the lost create, is found next to the older namesake: one POST", async () => {
    const namesake = groupJson("platform", new Date(Date.now() - 120_000));
    let ours = "";
    const api = await lostCreateServer([namesake], (objects) => {
      const made = groupJson("platform", new Date());
      ours = made.uid;
      objects.push(made);
    });
    const created = await runtime.group.create(inputs);
    expect(created.id).toBe(ours);
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
  });

  it("a namesake with other fields is not what was sent, whenever it was made", async () => {
    const api = await lostCreateServer([], (objects) => {
      objects.push(groupJson("platform", new Date(), { description: "someone else's" }));
    });
    const created = await runtime.group.create(inputs);
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(2);
    expect(created.outs?.description).toBe("");
  });

  it("two candidates made since the attempt: fails naming both (uid, createTime) and adoptUid, creates nothing", async () => {
    const made: string[] = [];
    const api = await lostCreateServer([], (objects) => {
      for (let i = 0; i < 2; i++) {
        const group = groupJson("platform", new Date());
        made.push(`${group.uid} (createTime ${group.createTime})`);
        objects.push(group);
      }
    });
    const error = await rejection(runtime.group.create(inputs));
    for (const candidate of made) expect(error.message).toContain(candidate);
    expect(error.message).toContain("adoptUid");
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
  });

  it("no Date header to judge by: a candidate is not taken on trust", async () => {
    const api = await lostCreateServer(
      [groupJson("platform", new Date(Date.now() - 120_000))],
      () => {},
      { sendDate: false },
    );
    const error = await rejection(runtime.group.create(inputs));
    expect(error.message).toContain("no Date header");
    expect(error.message).toContain("adoptUid");
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
  });
});

// --- 7. a proxy's 5xx after a POST ------------------------------------------

describe("a proxy's plain-text 5xx after a create was forwarded", () => {
  for (const status of [502, 503]) {
    it(`plain-text ${status}: an unknown outcome, never retried (no duplicate)`, async () => {
      const api = await fakeApi((_req, res) => {
        res.writeHead(status, { "content-type": "text/plain" });
        res.end("upstream connect error or disconnect/reset before headers");
      });
      const error = await rejection(clientOf(api).iam.groups.create(ROOT, { name: "x" }));
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(error.message).toContain(`HTTP ${status}`);
      expect(error.message).toContain("text/plain");
      expect(api.requests).toEqual([`POST /iam/v2beta1/groups/${ROOT}`]);
    });
  }

  it("the API's own AIP-193 UNAVAILABLE to a create is retried: the API says it did nothing", async () => {
    let posts = 0;
    const api = await fakeApi((_req, res) => {
      posts += 1;
      if (posts === 1) {
        json(res, 503, {
          code: 14,
          message: "Unavailable: overloaded",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "UNAVAILABLE",
              domain: "iam.example",
            },
          ],
        });
        return;
      }
      json(res, 200, groupJson("x", new Date()));
    });
    const created = await clientOf(api).iam.groups.create(ROOT, { name: "x" });
    expect(created.name).toBe("x");
    expect(api.requests).toHaveLength(2);
  });

  it("an AIP-193-shaped 503 without the API's ErrorInfo (a gateway's JSON): unknown outcome, not retried", async () => {
    const api = await fakeApi((_req, res) =>
      json(res, 503, { code: 14, message: "no healthy upstream" }),
    );
    const error = await rejection(clientOf(api).iam.groups.create(ROOT, { name: "x" }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(api.requests).toHaveLength(1);
  });

  it("through the provider: the lost create is looked up, found, and not sent again", async () => {
    const objects: ReturnType<typeof groupJson>[] = [];
    const api = await fakeApi((req, res, body) => {
      if (req.method === "POST") {
        objects.push(groupJson(JSON.parse(body).name, new Date()));
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("Service Unavailable");
        return;
      }
      json(res, 200, { groups: objects, totalCount: String(objects.length), skipped: 0 });
    });
    await configureProvider({ "irm:apiUrl": api.url, "irm:token": SECRET });
    const created = await runtime.group.create({ parentUid: ROOT, name: "x", description: "" });
    expect(created.id).toBe(objects[0].uid);
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
  });
});

// --- 8. answers of the wrong shape -------------------------------------------

describe("answers of the wrong shape", () => {
  it("a 200 without uid: a BadResponseError naming the field, not a TypeError", async () => {
    const uid = `${ROOT}/00000000000000aa`;
    const api = await fakeApi((_req, res) => {
      const { uid: _dropped, ...rest } = groupJson("x", new Date(), { uid });
      json(res, 200, rest);
    });
    const error = await rejection(clientOf(api).iam.groups.get(uid));
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("group.uid: missing");
    await configureProvider({ "irm:apiUrl": api.url, "irm:token": SECRET });
    const read = await rejection(runtime.group.read(uid));
    expect(read).toBeInstanceOf(BadResponseError);
    expect(read.message).toContain("group.uid");
  });

  it("a non-string name, a uid under another parent, a uid other than the one asked for", async () => {
    const uid = `${ROOT}/00000000000000aa`;
    const other = "fedcba9876543210fedcba9876543210fedcba98/00000000000000aa";
    let answer: unknown;
    const api = await fakeApi((_req, res) => json(res, 200, answer));
    const client = clientOf(api);
    answer = groupJson("x", new Date(), { uid, name: 42 });
    expect((await rejection(client.iam.groups.get(uid))).message).toContain(
      "group.name: expected a string, got a number",
    );
    answer = groupJson("x", new Date(), { uid: other });
    expect((await rejection(client.iam.groups.get(uid))).message).toContain(
      `${other} is not the uid asked for`,
    );
    answer = { groups: [groupJson("x", new Date(), { uid: other })], totalCount: "1" };
    expect((await rejection(client.iam.groups.list({ childrenOf: ROOT }))).message).toContain(
      `groups[0].uid: ${other} is not a child of ${ROOT}`,
    );
    answer = { totalCount: "3" };
    expect((await rejection(client.iam.groups.list())).message).toContain("list.groups: missing");
  });

  it("a create answered with an object under another parent: unknown outcome; the provider recovers without a second create", async () => {
    const objects: ReturnType<typeof groupJson>[] = [];
    const api = await fakeApi((req, res, body) => {
      if (req.method === "POST") {
        const made = groupJson(JSON.parse(body).name, new Date());
        objects.push(made);
        json(res, 200, {
          ...made,
          uid: `fedcba9876543210fedcba9876543210fedcba98/0000000000000001`,
        });
        return;
      }
      json(res, 200, { groups: objects, totalCount: String(objects.length), skipped: 0 });
    });
    const sdkError = await rejection(clientOf(api).iam.groups.create(ROOT, { name: "y" }));
    expect(sdkError).toBeInstanceOf(OutcomeUnknownError);
    expect(sdkError.message).toContain(`is not directly under ${ROOT}`);
    objects.length = 0;
    api.requests.length = 0;
    await configureProvider({ "irm:apiUrl": api.url, "irm:token": SECRET });
    const created = await runtime.group.create({ parentUid: ROOT, name: "y", description: "" });
    expect(created.id).toBe(objects[0].uid);
    expect(api.requests.filter((r) => r.startsWith("POST"))).toHaveLength(1);
  });

  it("a token exchange answering an unusable token: a BadResponseError naming the field, never the token", async () => {
    const api = await fakeApi((_req, res) => json(res, 200, { token: "two words" }));
    const client = new IrmClient({
      baseUrl: api.url,
      identity: `${ROOT}/0000000000000001`,
      oidcToken: async () => "oidc-token-value",
      env: {},
      retry: { retries: 0 },
    });
    const error = await rejection(client.iam.groups.list());
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain('"token" is not a usable token');
    expect(shown(error)).not.toContain("two words");
  });
});

// --- 9. unbounded reads -------------------------------------------------------

describe("bodies and waits are bounded", () => {
  /** A server that answers 200 and then streams forever. */
  async function endless() {
    return fakeApi((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {
          /* keep the socket full */
        }
        if (!res.destroyed) res.once("drain", pump);
      };
      res.write('{"groups": [');
      pump();
    });
  }

  it("an endless 200 body is abandoned at maxResponseBytes", async () => {
    const api = await endless();
    const client = clientOf(api, { maxResponseBytes: 256 * 1024, retry: { retries: 0 } });
    const started = performance.now();
    const error = await rejection(client.iam.groups.list());
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("body larger than 262144 bytes");
    expect(performance.now() - started).toBeLessThan(5_000);
    await client.close();
  });

  it("the default cap is a few MiB and IRM_MAX_RESPONSE_BYTES sets it", async () => {
    const api = await endless();
    const client = clientOf(api, {
      env: { IRM_MAX_RESPONSE_BYTES: "100000" },
      retry: { retries: 0 },
    });
    expect((await rejection(client.iam.groups.list())).message).toContain(
      "body larger than 100000 bytes",
    );
    expect(() => new IrmClient({ baseUrl: api.url, env: { IRM_MAX_RESPONSE_BYTES: "0" } })).toThrow(
      /IRM_MAX_RESPONSE_BYTES/,
    );
    await client.close();
  });

  it("an endless body to a create is an unknown outcome, not a retry", async () => {
    const api = await endless();
    const client = clientOf(api, { maxResponseBytes: 100_000 });
    expect(await rejection(client.iam.groups.create(ROOT, { name: "x" }))).toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it("the GitHub Actions OIDC fetch gives up after its timeout, and never shows its request token", async () => {
    const api = await fakeApi(() => {
      /* never answers */
    });
    const requestToken = "gh-request-token-abcdefghijklmnop";
    const fetchToken = oidcTokenFromGitHubActions({
      env: {
        ACTIONS_ID_TOKEN_REQUEST_URL: `${api.url}/token?x=1`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: requestToken,
      },
      timeoutMs: 300,
    });
    const started = performance.now();
    const error = await rejection(fetchToken());
    expect(error.message).toContain("no complete answer within 300 ms");
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(shown(error)).not.toContain(requestToken);
  });

  it("the client passes its timeout to the GitHub Actions OIDC fetch", async () => {
    const api = await fakeApi(() => {
      /* never answers */
    });
    const client = new IrmClient({
      baseUrl: api.url,
      identity: `${ROOT}/0000000000000001`,
      timeoutMs: 300,
      env: {
        ACTIONS_ID_TOKEN_REQUEST_URL: `${api.url}/token`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "gh-request-token-abcdefghijklmnop",
      },
    });
    const started = performance.now();
    await expect(client.iam.groups.list()).rejects.toThrow(/within 300 ms/);
    expect(performance.now() - started).toBeLessThan(5_000);
    await client.close();
  });

  it("a token exchange that never answers: bounded by timeoutMs, and the caller's signal ends the wait", async () => {
    const api = await fakeApi(() => {
      /* never answers */
    });
    const client = new IrmClient({
      baseUrl: api.url,
      identity: `${ROOT}/0000000000000001`,
      oidcToken: async () => "oidc-token-value-123456",
      timeoutMs: 300,
      retry: { retries: 0 },
      env: {},
    });
    const started = performance.now();
    const timedOut = await rejection(client.iam.groups.list());
    expect(timedOut.message).toContain("Token exchange for identity");
    expect(timedOut.message).toContain("no complete answer within 300 ms");
    expect(performance.now() - started).toBeLessThan(5_000);

    // The default timeout (30 s): the caller's signal, at 100 ms, ends the wait first. The
    // exchange it abandons is shared with other callers; `close()` abandons it too, at once.
    const patient = new IrmClient({
      baseUrl: api.url,
      identity: `${ROOT}/0000000000000001`,
      oidcToken: async () => "oidc-token-value-123456",
      env: {},
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled by caller")), 100);
    const waited = performance.now();
    await expect(patient.iam.groups.list({}, { signal: controller.signal })).rejects.toThrow(
      "cancelled by caller",
    );
    expect(performance.now() - waited).toBeLessThan(2_000);
    await client.close();
    const closing = performance.now();
    await patient.close();
    expect(performance.now() - closing).toBeLessThan(1_000);
  });

  it("a caller's signal cancels the OIDC fetch", async () => {
    const api = await fakeApi(() => {
      /* never answers */
    });
    const fetchToken = oidcTokenFromGitHubActions({
      env: {
        ACTIONS_ID_TOKEN_REQUEST_URL: api.url,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: "t".repeat(20),
      },
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("cancelled by caller")), 100);
    await expect(fetchToken({ signal: controller.signal })).rejects.toThrow("cancelled by caller");
  });
});

// --- 10. endless listings ------------------------------------------------------

describe("page tokens that come round again", () => {
  it("A → B → A: the listing stops with a BadResponseError instead of looping", async () => {
    const next: Record<string, string> = { "": "A", A: "B", B: "A" };
    const api = await fakeApi((req, res) => {
      const token = new URL(req.url ?? "/", "http://x").searchParams.get("page_token") ?? "";
      json(res, 200, {
        groups: [groupJson(`g-${token || "first"}`, new Date())],
        nextPageToken: next[token],
        totalCount: "1000",
      });
    });
    const error = await rejection(clientOf(api).iam.groups.list().all());
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error.message).toContain("already given");
    expect(api.requests).toHaveLength(3);
  });
});
