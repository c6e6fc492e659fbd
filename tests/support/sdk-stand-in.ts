/**
 * A small scripted HTTP server standing in for the API, for the SDK's decoding,
 * shape and encoding tests: each request is recorded (method, path, query, body)
 * and answered by the next scripted answer, else by the fallback.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { IrmClient } from "../../sdk";

export interface SeenRequest {
  method: string;
  /** Path without the query, as sent (percent-encoding kept). */
  path: string;
  /** Decoded query parameters. */
  query: Record<string, string>;
  /** Raw query string, as sent. */
  rawQuery: string;
  /** A JSON body parsed, a form body as its fields (repeated keys as arrays), `undefined` when empty. */
  body: unknown;
  /** The request's `content-type`, `""` when none. */
  contentType: string;
  /** The `authorization` header, `""` when none. */
  authorization: string;
}

/** The fields of a form body; a key sent more than once has an array of its values. */
function formFields(raw: string): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const before = fields[key];
    fields[key] = before === undefined ? value : [before, value].flat();
  }
  return fields;
}

export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers `body` as JSON with `status`. */
export function json(body: unknown, status = 200): Answer {
  return (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
}

/** Answers an AIP-193 error. */
export function apiError(
  status: number,
  code: number,
  message: string,
  details: unknown[] = [],
): Answer {
  return json({ code, message, details }, status);
}

export class StandIn {
  readonly seen: SeenRequest[] = [];
  #script: Answer[] = [];
  fallback: Answer = json({});
  #server: Server;
  #clients: IrmClient[] = [];
  baseUrl = "";

  constructor() {
    this.#server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk) => {
        raw += chunk;
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://stand-in");
        const query: Record<string, string> = {};
        for (const [key, value] of url.searchParams) query[key] = value;
        const contentType = req.headers["content-type"] ?? "";
        const form = contentType.startsWith("application/x-www-form-urlencoded");
        this.seen.push({
          method: req.method ?? "",
          path: (req.url ?? "").split("?")[0],
          query,
          rawQuery: url.search.slice(1),
          body: raw === "" ? undefined : form ? formFields(raw) : JSON.parse(raw),
          contentType,
          authorization: req.headers.authorization ?? "",
        });
        (this.#script.shift() ?? this.fallback)(req, res);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** The next answers, in order. */
  answer(...answers: Answer[]): void {
    this.#script.push(...answers);
  }

  reset(): void {
    this.#script = [];
    this.seen.length = 0;
    this.fallback = json({});
  }

  /** A client of the stand-in with a static token and no retries. */
  client(): IrmClient {
    const client = new IrmClient({
      baseUrl: this.baseUrl,
      token: "stand-in-token",
      env: {},
      retry: { retries: 0 },
    });
    this.#clients.push(client);
    return client;
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((client) => client.close()));
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}
