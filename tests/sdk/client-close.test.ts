/**
 * `close()` ends promptly. A token exchange is shared by the callers that wait for it and
 * bound only by the client's timeout (30 s by default); once every caller has given up,
 * or the client closes under them, `close()` abandons it: the OIDC fetch and the POST are
 * aborted, the connection released, nothing left to reject unhandled, no token shown.
 * The exchange here never answers, so only the abort can end it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { IrmClient, type OidcTokenProvider } from "../../sdk";
import { failure } from "../support/sdk-helpers";

const IDENTITY = `${"a".repeat(40)}/0123456789abcdef`;
const OIDC_TOKEN = "oidc-token-of-the-workload-5f1c";
/** How long `close()` may take: far below the client's 30 s timeout. */
const PROMPT_MS = 1_000;

let server: Server;
let baseUrl = "";
const sockets = new Set<Socket>();
/** Exchanges received (never answered), and who waits for the next one. */
let exchanges = 0;
let onExchange: (() => void) | undefined;
const clients: IrmClient[] = [];
const unhandled: unknown[] = [];
const noteUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    if (req.url?.endsWith("/sts/exchange")) {
      exchanges += 1;
      onExchange?.();
      return; // never answers
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ groups: [] }));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.on("unhandledRejection", noteUnhandled);
});

afterEach(async () => {
  exchanges = 0;
  onExchange = undefined;
  unhandled.length = 0;
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  process.off("unhandledRejection", noteUnhandled);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A client that assumes `IDENTITY` by exchange, with the default timeout (30 s). */
function exchangingClient(oidcToken: OidcTokenProvider = async () => OIDC_TOKEN): IrmClient {
  const client = new IrmClient({ baseUrl, identity: IDENTITY, oidcToken, env: {} });
  clients.push(client);
  return client;
}

function exchangeArrives(): Promise<void> {
  return new Promise((resolve) => {
    onExchange = resolve;
  });
}

/** A call with its own signal, which gives up once `reached` (the exchange under way). */
async function callerGivesUp(client: IrmClient, reached: Promise<void>): Promise<void> {
  const controller = new AbortController();
  const call = failure(client.iam.groups.list({}, { signal: controller.signal }));
  await reached;
  controller.abort(new Error("the caller gave up"));
  expect(await call).toMatchObject({ message: "the caller gave up" });
}

/**
 * `close()` ends within `PROMPT_MS` (fails then rather than waiting longer) and leaves
 * no rejection unhandled.
 */
async function closesPromptly(client: IrmClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), PROMPT_MS);
  });
  const outcome = await Promise.race([client.close().then(() => "closed" as const), late]);
  clearTimeout(timer);
  expect(outcome, "close() ended before the bound").toBe("closed");
  await settle();
  expect(unhandled).toEqual([]);
}

/** Resolves once the server has seen every connection close, or after `PROMPT_MS`. */
async function connectionsReleased(): Promise<number> {
  const deadline = performance.now() + PROMPT_MS;
  while (sockets.size > 0 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return sockets.size;
}

/** Lets any rejection left unhandled be reported (Node reports after the microtasks). */
async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

function shown(error: unknown): string {
  return [String(error), (error as Error).stack ?? "", inspect(error, { depth: 10 })].join("\n");
}

describe("close() with a token exchange in flight", () => {
  it("abandons an exchange every caller has given up on, and releases its connection", async () => {
    const client = exchangingClient();
    await callerGivesUp(client, exchangeArrives());
    await closesPromptly(client);
    expect(await connectionsReleased()).toBe(0);
    expect(exchanges).toBe(1);
  });

  it("tells a caller still waiting that the client closed, showing no token", async () => {
    const client = exchangingClient();
    const arrived = exchangeArrives();
    const call = failure(client.iam.groups.list());
    await arrived;

    await closesPromptly(client);
    const error = await call;
    expect(error).toMatchObject({ name: "AbortError", message: expect.stringMatching(/closed/) });
    expect(shown(error)).not.toContain(OIDC_TOKEN);
    expect(await connectionsReleased()).toBe(0);
  });

  it("ends the OIDC fetch of an abandoned exchange, and sends no exchange after it", async () => {
    let fetchSignal: AbortSignal | undefined;
    let fetchStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      fetchStarted = resolve;
    });
    // A platform endpoint that never answers: only an abort ends the fetch.
    const client = exchangingClient(({ signal } = {}) => {
      fetchSignal = signal;
      fetchStarted();
      return new Promise((_resolve, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    });
    await callerGivesUp(client, started);
    await closesPromptly(client);
    expect(fetchSignal?.aborted, "the OIDC fetch was told to stop").toBe(true);
    expect(exchanges).toBe(0);
  });

  it("leaves a client with a static token as it was: close() after a request", async () => {
    const client = new IrmClient({
      baseUrl,
      token: "static-token",
      env: {},
      retry: { retries: 0 },
    });
    clients.push(client);
    await client.iam.groups.list();
    await closesPromptly(client);
    await expect(client.iam.groups.list()).rejects.toThrow();
  });
});
