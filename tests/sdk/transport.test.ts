/**
 * The client's transport against a scripted local HTTP server: fault shapes that
 * must be classified exactly (reset before/after a response, HTML, empty and
 * truncated bodies, redirects, timeouts, 401 handling). The emulator tests cover
 * the same faults end to end; here each one is pinned down in isolation.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  BadResponseError,
  ConnectionError,
  cachedTokenSource,
  IrmClient,
  type IrmClientOptions,
  NotFoundError,
  OutcomeUnknownError,
  RateLimitedError,
  type SdkEvent,
  TimeoutError,
  UnauthenticatedError,
} from "../../sdk";

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  authorization?: string;
  body: string;
}

function status(code: number, grpc: number, message: string, headers: Record<string, string> = {}) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(code, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify({ code: grpc, message, details: [] }));
  };
}
const ok =
  (body: unknown): Behaviour =>
  (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
const reset: Behaviour = (req) => req.socket.destroy();
const hang: Behaviour = () => {};

let server: Server;
let baseUrl: string;
let script: Behaviour[] = [];
let fallback: Behaviour = ok({});
let seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body,
      });
      (script.shift() ?? fallback)(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  script = [];
  fallback = ok({});
  seen = [];
});

const clients: IrmClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function client(options: IrmClientOptions = {}, events: SdkEvent[] = []) {
  const created = new IrmClient({
    baseUrl,
    token: "static-secret-token-123",
    env: {},
    logger: (event) => events.push(event),
    ...options,
    retry: { minDelayMs: 1, maxDelayMs: 2, ...options.retry },
  });
  clients.push(created);
  return created;
}

const GROUP = {
  uid: "a".repeat(40),
  name: "g",
  description: "",
  resourceLimits: { repositories: "3" },
  createTime: "2026-11-21T10:00:00.000Z",
  updateTime: "2026-11-21T10:00:00.000Z",
};

describe("requests", () => {
  it("maps list parameters to their wire names and encodes nested uids as paths", async () => {
    fallback = ok({ groups: [], totalCount: "0", skipped: 2 });
    const c = client();
    const page = await c.iam.groups.list({
      descendantsOf: "r",
      childrenOf: "r/c",
      name: "team a",
      pageSize: 5,
      pageToken: "t",
      orderBy: "name desc",
      skip: 2,
    });
    expect(page).toEqual({ items: [], totalCount: 0, skipped: 2 });
    expect(seen[0].url).toBe(
      "/iam/v2beta1/groups?uidp.descendants_of=r&uidp.children_of=r%2Fc&name=team%20a&page_size=5&page_token=t&order_by=name%20desc&skip=2",
    );
    fallback = ok({ ...GROUP, uid: "r/0123456789abcdef" });
    const group = await c.iam.groups.update(
      "r/0123456789abcdef",
      { description: "d" },
      { updateMask: ["description", "name"] },
    );
    expect(seen[1]).toMatchObject({
      method: "PATCH",
      url: "/iam/v2beta1/groups/r/0123456789abcdef?updateMask=description,name",
      authorization: "Bearer static-secret-token-123",
      body: '{"description":"d"}',
    });
    expect(group.resourceLimits).toEqual({ repositories: 3 });
  });

  it("rejects a malformed uid before sending anything", async () => {
    const c = client();
    await expect(c.iam.groups.get("a//b")).rejects.toThrow(/empty/);
    await expect(c.iam.groups.delete("a/../b")).rejects.toThrow(/"\.\."/);
    expect(seen).toHaveLength(0);
  });
});

describe("faults", () => {
  it("retries a 503 and reports the retry", async () => {
    script = [status(503, 14, "busy"), ok(GROUP)];
    const events: SdkEvent[] = [];
    const group = await client({}, events).iam.groups.get(GROUP.uid);
    expect(group.uid).toBe(GROUP.uid);
    expect(seen).toHaveLength(2);
    expect(events).toEqual([
      expect.objectContaining({
        type: "retry",
        method: "GET",
        retryNumber: 1,
        codeName: "UNAVAILABLE",
        status: 503,
      }),
    ]);
  });

  it("caps a long Retry-After by maxRetryAfterMs", async () => {
    script = [status(429, 8, "slow down", { "retry-after": "3600" }), ok(GROUP)];
    const events: SdkEvent[] = [];
    await client({ retry: { maxRetryAfterMs: 20 } }, events).iam.groups.get(GROUP.uid);
    expect(events).toEqual([expect.objectContaining({ type: "retry", delayMs: 20, status: 429 })]);
  });

  it("gives up on a Retry-After beyond the total time budget", async () => {
    fallback = status(429, 8, "slow down", { "retry-after": "3600" });
    const error = await client({ retry: { maxRetryAfterMs: 7_200_000, maxRetryTimeMs: 1000 } })
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(seen).toHaveLength(1);
  });

  it("retries a GET whose connection dropped", async () => {
    script = [reset, ok(GROUP)];
    await client().iam.groups.get(GROUP.uid);
    expect(seen).toHaveLength(2);
  });

  it("does not retry a POST whose connection dropped after sending: outcome unknown", async () => {
    fallback = reset;
    const error = await client()
      .iam.groups.create(GROUP.uid, { name: "new" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).request).toMatchObject({
      method: "POST",
      path: `/iam/v2beta1/groups/${GROUP.uid}`,
    });
    expect(String(error)).toMatch(/may or may not have taken effect/);
    expect(seen).toHaveLength(1);
  });

  it("retries a POST that could not connect at all, then reports a connection error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const events: SdkEvent[] = [];
    const error = await client(
      { baseUrl: `http://127.0.0.1:${port}`, retry: { retries: 2 } },
      events,
    )
      .iam.groups.create(GROUP.uid, { name: "new" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).beforeSend).toBe(true);
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
  });

  it("reports an HTML 502 from a proxy as a bad response, after retrying it", async () => {
    fallback = (_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
    };
    const error = await client({ retry: { retries: 1 } })
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadResponseError);
    expect(error).toMatchObject({ status: 502, codeName: "UNAVAILABLE" });
    expect(String(error)).toMatch(/HTTP 502 \(text\/html\), not JSON/);
    expect(seen).toHaveLength(2);
  });

  it("takes a NOT_FOUND body as the API's only on HTTP 404: a gateway's 502 saying code 5 is not 'gone'", async () => {
    const notFound = JSON.stringify({ code: 5, message: `Not found: ${GROUP.uid}` });
    fallback = (_req, res) => {
      res.writeHead(502, { "content-type": "application/json" });
      res.end(notFound);
    };
    const c = client({ retry: { retries: 0 } });
    const wrapped = await c.iam.groups.get(GROUP.uid).catch((e: unknown) => e);
    expect(wrapped).toBeInstanceOf(BadResponseError);
    expect(c.iam.groups.isGone(wrapped, GROUP.uid)).toBe(false);
    fallback = (_req, res) => {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(notFound);
    };
    const own = await c.iam.groups.get(GROUP.uid).catch((e: unknown) => e);
    expect(c.iam.groups.isGone(own, GROUP.uid)).toBe(true);
  });

  it("reports an empty error body and a truncated JSON body clearly", async () => {
    script = [
      (_req, res) => {
        res.writeHead(500);
        res.end();
      },
    ];
    const empty = await client()
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(BadResponseError);
    expect(String(empty)).toMatch(/HTTP 500.*empty body/);

    fallback = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"uid":"abc","na');
    };
    const truncated = await client({ retry: { retries: 0 } })
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(truncated).toBeInstanceOf(BadResponseError);
    expect(String(truncated)).toMatch(/truncated or invalid JSON/);
  });

  it("treats a garbled answer to a create as an unknown outcome", async () => {
    fallback = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"uid":"abc","na');
    };
    const error = await client()
      .iam.groups.create(GROUP.uid, { name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(seen).toHaveLength(1);
  });

  it("times out an attempt; a create that timed out has an unknown outcome", async () => {
    fallback = hang;
    const get = await client({ timeoutMs: 50, retry: { retries: 1 } })
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(get).toBeInstanceOf(TimeoutError);
    expect(seen).toHaveLength(2);
    seen = [];
    const create = await client({ timeoutMs: 50 })
      .iam.groups.create(GROUP.uid, { name: "x" })
      .catch((e: unknown) => e);
    expect(create).toBeInstanceOf(OutcomeUnknownError);
    expect(seen).toHaveLength(1);
  });

  it("never follows a redirect, so the token cannot leave the configured origin", async () => {
    const elsewhere: Seen[] = [];
    const other = createServer((req, res) => {
      elsewhere.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body: "",
      });
      res.end("{}");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/steal`;
    fallback = (_req, res) => {
      res.writeHead(307, { location: otherUrl });
      res.end();
    };
    const error = await client()
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadResponseError);
    expect(elsewhere).toHaveLength(0);
    await new Promise((resolve) => other.close(resolve));
  });

  it("cancels through the caller's AbortSignal", async () => {
    fallback = hang;
    const controller = new AbortController();
    const pending = client().iam.groups.get(GROUP.uid, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("stop")), 20);
    await expect(pending).rejects.toThrow("stop");
  });
});

describe("tokens", () => {
  it("redacts a token the server echoes, from the message, toString and events", async () => {
    const events: SdkEvent[] = [];
    fallback = status(404, 5, "Not found: (caller static-secret-token-123)");
    const error = await client({}, events)
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const printed = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack} ${JSON.stringify(events)}`;
    expect(printed).not.toContain("static-secret-token-123");
  });

  it("with a static token, a 401 is final after one request", async () => {
    fallback = status(401, 16, "Unauthenticated: expired");
    await expect(client().iam.groups.get(GROUP.uid)).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(seen).toHaveLength(1);
  });

  it("refreshes at most once per call, even when a retry comes between two 401s", async () => {
    let issued = 0;
    const tokenSource = cachedTokenSource(async () => `once-token-${++issued}`, {
      description: "counter",
    });
    script = [
      status(401, 16, "Unauthenticated: expired"),
      status(503, 14, "busy"),
      status(401, 16, "Unauthenticated: still"),
    ];
    fallback = ok(GROUP);
    const error = await client({ tokenSource })
      .iam.groups.get(GROUP.uid)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(issued).toBe(2);
    expect(seen.map((s) => s.authorization)).toEqual([
      "Bearer once-token-1",
      "Bearer once-token-2",
      "Bearer once-token-2",
    ]);
  });

  it("with a refreshable source, a 401 causes exactly one refresh and one repeat", async () => {
    let issued = 0;
    const events: SdkEvent[] = [];
    const tokenSource = cachedTokenSource(async () => `refreshable-token-${++issued}`, {
      description: "counter",
    });
    fallback = status(401, 16, "Unauthenticated: expired");
    const error = await client({ tokenSource }, events)
      .iam.groups.create(GROUP.uid, { name: "x" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(issued).toBe(2);
    expect(seen.map((s) => s.authorization)).toEqual([
      "Bearer refreshable-token-1",
      "Bearer refreshable-token-2",
    ]);
    expect(events.map((e) => e.type === "token-refresh" && e.reason)).toEqual([
      "initial",
      "rejected",
    ]);

    seen = [];
    script = [status(401, 16, "Unauthenticated: expired")];
    fallback = ok(GROUP);
    await client({ tokenSource }).iam.groups.get(GROUP.uid);
    expect(issued).toBe(3);
    expect(seen.map((s) => s.authorization)).toEqual([
      "Bearer refreshable-token-2",
      "Bearer refreshable-token-3",
    ]);
  });
});
