/**
 * Small fake API servers on 127.0.0.1, for what the SDK and the provider do with answers
 * the emulator never gives (a proxy's page, a wrong shape, an echo of a secret), and
 * `rejection`, which catches the failure of a call for assertions on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** Answers one request; `body` is the whole request body, read before the call. */
export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface FakeApi {
  url: string;
  /** `METHOD path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

const open = new Set<Server>();

function shut(server: Server): Promise<void> {
  open.delete(server);
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** A server answering every request with `handler`; close it, or `closeFakeApis()`. */
export async function fakeApi(handler: Handler): Promise<FakeApi> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      requests.push(`${req.method} ${new URL(req.url ?? "/", "http://x").pathname}`);
      handler(req, res, Buffer.concat(chunks).toString("utf8"));
    });
  });
  open.add(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => shut(server) };
}

/**
 * A fake API for the tests of the calling `describe`: started before them, closed
 * after; `url` is its address once started.
 */
export function useFakeApi(handler: Handler): { readonly url: string } {
  let api: FakeApi | undefined;
  beforeAll(async () => {
    api = await fakeApi(handler);
  });
  afterAll(() => api?.close());
  return {
    get url() {
      if (!api) throw new Error("the fake API is not started yet (use it inside a test)");
      return api.url;
    },
  };
}

/** Closes every fake server of this test file still open (for an `afterEach`). */
export async function closeFakeApis(): Promise<void> {
  await Promise.all([...open].map(shut));
}

/** The error `promise` rejects with; fails the test if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}
