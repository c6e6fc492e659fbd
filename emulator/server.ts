/**
 * HTTP plumbing: reads and bounds bodies, decodes paths, applies faults and the
 * rate limit, logs API and auth requests, and turns every failure into an
 * AIP-193 body (never a crash, never an unanswered request unless a fault says so).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex, Readable } from "node:stream";
import type { Api, EmulatorContext } from "./api";
import { checkControlCaller } from "./control-guard";
import { handleControl } from "./controls";
import { ApiError, errorForStatus, invalidArgument, notFound, resourceExhausted } from "./errors";
import type { Fault, FaultTable, RateLimiter } from "./faults";
import type { RequestLog } from "./request-log";
import type { ApiRequest, ApiResponse } from "./requests";

/** Request bodies above this size are refused with INVALID_ARGUMENT on `body`. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Past `MAX_BODY_BYTES`, at most this much more of a body is read (and thrown away)
 * before the answer, so that a client still sending reads it. A longer body, or one
 * whose `Content-Length` announces more, is answered at once and read no further.
 */
export const MAX_DRAINED_BYTES = 4 * 1024 * 1024;

/** After answering an abandoned HTTP/1.1 body, how long the rest is read and dropped before the socket closes. */
const LINGER_MS = 1000;

export interface ServerDeps {
  ctx: EmulatorContext;
  api: Api;
  log: RequestLog;
  faults: FaultTable;
  rateLimiter: RateLimiter;
  /**
   * Resolves once every change made so far is durable (`--data`); every answer waits
   * for it, so no answer tells of a change a crash could still lose.
   */
  commit: () => Promise<void>;
  /** Test controls answer callers beyond loopback too (`--open-controls`). */
  openControls?: boolean;
}

export interface RawBody {
  bytes: Buffer;
  tooLarge: boolean;
  /** The body was not read to its end (past `MAX_DRAINED_BYTES`): close after the answer. */
  abandoned?: boolean;
}

/**
 * A request's body, at most `limit` bytes of it: past the limit up to
 * `MAX_DRAINED_BYTES` more are drained (so the client still reads the answer) but not
 * kept, and `tooLarge` is set; past that, or at once when `Content-Length` announces
 * more, reading stops and `abandoned` is set too. Over HTTP/2 flow control then holds
 * the client back; over HTTP/1.1 `closeAfterAbandoned` ends the connection.
 */
export function readBody(
  request: Readable & { headers?: Record<string, unknown> },
  limit = MAX_BODY_BYTES,
): Promise<RawBody> {
  const abandoned: RawBody = { bytes: Buffer.alloc(0), tooLarge: true, abandoned: true };
  if (Number(request.headers?.["content-length"] ?? 0) > limit + MAX_DRAINED_BYTES) {
    return Promise.resolve(abandoned);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit + MAX_DRAINED_BYTES) {
        request.off("data", onData);
        request.off("end", onEnd);
        request.pause();
        resolve(abandoned);
        return;
      }
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve({ bytes: Buffer.concat(chunks), tooLarge });
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", reject);
  });
}

/**
 * The answer to a request whose body was abandoned, over HTTP/1.1, ends its connection:
 * once the answer is out the socket's sending side closes, what still arrives is read
 * and dropped for `LINGER_MS` (closing at once would reset the connection, and the
 * client, still sending, would lose the answer), then the socket closes. Over HTTP/2
 * nothing is needed: flow control holds the client back.
 */
function closeAfterAbandoned(request: IncomingMessage, response: ServerResponse): void {
  if (request.httpVersionMajor >= 2) return;
  response.once("finish", () => {
    const socket = request.socket;
    socket.end();
    request.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

function parseBody(
  raw: RawBody,
  contentType: string | undefined,
): Pick<ApiRequest, "body" | "bodyError" | "form"> {
  if (raw.tooLarge) {
    return {
      body: undefined,
      bodyError: invalidArgument("body", `must not exceed ${MAX_BODY_BYTES} bytes`),
    };
  }
  if (raw.bytes.length === 0) return { body: undefined };
  const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (mediaType === "application/x-www-form-urlencoded") {
    // Read by the token exchange; any other route refuses it as a body.
    let form: URLSearchParams;
    try {
      form = new URLSearchParams(new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes));
    } catch {
      return { body: undefined, bodyError: invalidArgument("body", "is not valid UTF-8") };
    }
    return {
      body: undefined,
      form,
      bodyError: invalidArgument("body", `Content-Type must be application/json, not ${mediaType}`),
    };
  }
  if (mediaType !== "" && mediaType !== "application/json" && !mediaType.endsWith("+json")) {
    return {
      body: undefined,
      bodyError: invalidArgument("body", `Content-Type must be application/json, not ${mediaType}`),
    };
  }
  let text: string;
  try {
    // Fatal decoding: invalid UTF-8 must not be stored as replacement characters.
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw.bytes);
  } catch {
    return { body: undefined, bodyError: invalidArgument("body", "is not valid UTF-8") };
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { body: undefined, bodyError: invalidArgument("body", "is not valid JSON") };
  }
}

/**
 * Requests Node's HTTP parser refuses before any handler runs (not HTTP, headers or URL
 * too large, conflicting framing) get an AIP-193 body too, instead of Node's bare 400.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === "HPE_HEADER_OVERFLOW";
  const status = tooLarge ? "431 Request Header Fields Too Large" : "400 Bad Request";
  const reason = tooLarge ? "headers (or the URL) are too large" : "is not a valid HTTP request";
  const body = JSON.stringify(invalidArgument("request", reason).toBody());
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `/oidc/token` however its path is spelled (percent-escapes, a trailing slash aside). */
function isOidcTokenPath(rawPath: string): boolean {
  try {
    return decodePath(rawPath).replace(/\/+$/, "") === "/oidc/token";
  } catch {
    return false;
  }
}

function decodePath(rawPath: string): string {
  try {
    return rawPath
      .split("/")
      .map((segment) => decodeURIComponent(segment))
      .join("/");
  } catch {
    throw invalidArgument("path", "has malformed percent-encoding");
  }
}

function errorResponse(error: ApiError): ApiResponse {
  return { status: error.httpStatus, body: error.toBody(), headers: error.headers };
}

const HTML_GATEWAY_PAGE = (status: number): string =>
  `<!DOCTYPE html>\n<html><head><title>${status} Bad Gateway</title></head>` +
  `<body><center><h1>${status} Bad Gateway</h1></center><hr><center>proxy</center></body></html>\n`;

interface SendVariant {
  truncate?: boolean;
  html?: boolean;
}

function send(response: ServerResponse, result: ApiResponse, variant: SendVariant = {}): void {
  if (variant.html) {
    const page = Buffer.from(HTML_GATEWAY_PAGE(result.status));
    response.writeHead(result.status, {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": page.length,
    });
    response.end(page);
    return;
  }
  let payload = Buffer.from(JSON.stringify(result.body));
  // A cut-off body that still claims to be complete JSON, like a broken proxy's.
  if (variant.truncate) payload = payload.subarray(0, Math.floor(payload.length / 2));
  response.writeHead(result.status, {
    ...result.headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": payload.length,
  });
  response.end(payload);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `result` once the changes so far are on disk; an error answer if they cannot be. */
async function durably(deps: ServerDeps, result: ApiResponse): Promise<ApiResponse> {
  try {
    await deps.commit();
    return result;
  } catch {
    // The store has logged why (without request data).
    return errorResponse(
      new ApiError("INTERNAL", "Internal: the change could not be saved to the data file"),
    );
  }
}

/** One API request, whatever carried it (HTTP/1.1, or a gRPC call translated to it). */
export interface ApiCall {
  method: string;
  /** The path as sent, percent-escapes and all (faults and the log match it). */
  rawPath: string;
  query: string;
  authorization?: string;
  /** Reads the body (after any fault latency), parsed or with the reason it cannot be. */
  readBody(): Promise<Pick<ApiRequest, "body" | "bodyError">>;
}

/** What to do with a call: drop the connection, or send the answer (maybe as a fault shapes it). */
export type ApiOutcome =
  | { kind: "drop" }
  | { kind: "answer"; result: ApiResponse; truncate?: boolean; html?: boolean };

/**
 * The one path every API request takes: faults, the rate limit, the router, the
 * durability wait and the request log. The HTTP server and the gRPC face both use it,
 * so a call is refused, journaled and logged the same way whichever carried it.
 */
export function createApiPipeline(deps: ServerDeps): (call: ApiCall) => Promise<ApiOutcome> {
  const { ctx, api, log, faults, rateLimiter } = deps;

  return async (call) => {
    const { method, rawPath, query } = call;
    const time = ctx.clock.isoNow();
    const record = (status: number) => log.record({ method, path: rawPath, query, status, time });

    const fault: Fault | undefined = faults.take(method, rawPath);
    if (fault?.drop === "before") {
      record(0);
      return { kind: "drop" };
    }
    let result: ApiResponse;
    try {
      const body = await call.readBody();
      if (fault?.latencyMs) await sleep(fault.latencyMs);
      if (fault?.status !== undefined && fault.drop !== "after") {
        // The status is the fault's own; the body carries the nearest gRPC code.
        const injected = {
          ...errorResponse(errorForStatus(fault.status, fault.retryAfter)),
          status: fault.status,
        };
        record(fault.status);
        return { kind: "answer", result: injected, truncate: fault.truncate, html: fault.html };
      }
      const retryAfter = rateLimiter.admit(ctx.clock.nowMs());
      if (retryAfter !== undefined) throw resourceExhausted(retryAfter);
      const parsed: ApiRequest = {
        method,
        path: decodePath(rawPath),
        query: new URLSearchParams(query),
        authorization: call.authorization,
        ...body,
      };
      const answer = await api.handle(parsed);
      if (!answer) throw notFound(`${method} ${rawPath}`);
      result = answer;
    } catch (error) {
      result = errorResponse(toApiError(error));
    }
    result = await durably(deps, result);
    if (fault?.drop === "after") {
      record(0);
      return { kind: "drop" };
    }
    if (fault?.html) {
      // HTML without a status: the request took effect, then a proxy answered 502.
      const status = 502;
      record(status);
      return { kind: "answer", result: { status, body: null }, html: true };
    }
    record(result.status);
    return { kind: "answer", result, truncate: fault?.truncate };
  };
}

export function createRequestHandler(deps: ServerDeps) {
  const { ctx, log, faults, rateLimiter } = deps;

  /** `send` with a `Date` header from the emulator's clock, the one its timestamps use. */
  function reply(response: ServerResponse, result: ApiResponse, variant?: SendVariant): void {
    response.setHeader("Date", ctx.clock.now().toUTCString());
    send(response, result, variant);
  }

  async function handleControlRequest(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    query: string,
  ): Promise<void> {
    let result: ApiResponse;
    try {
      checkControlCaller(request, deps.openControls === true);
      const raw = await readBody(request);
      if (raw.abandoned) closeAfterAbandoned(request, response);
      const parsed: ApiRequest = {
        method: request.method ?? "GET",
        path,
        query: new URLSearchParams(query),
        ...parseBody(raw, request.headers["content-type"]),
      };
      result = await handleControl({ ctx, log, faults, rateLimiter }, parsed);
    } catch (error) {
      result = errorResponse(toApiError(error));
    }
    result = await durably(deps, result);
    reply(response, result);
  }

  const answerApi = createApiPipeline(deps);

  async function handleApiRequest(
    request: IncomingMessage,
    response: ServerResponse,
    rawPath: string,
    query: string,
  ): Promise<void> {
    if (request.method === "POST" && isOidcTokenPath(rawPath)) {
      // Its tokens are accepted by the built-in `platform-user` identity: it answers
      // the callers the test controls answer, no one else.
      try {
        checkControlCaller(request, deps.openControls === true, "the test issuer's token endpoint");
      } catch (error) {
        request.resume();
        reply(response, errorResponse(toApiError(error)));
        return;
      }
    }
    const outcome = await answerApi({
      method: request.method ?? "GET",
      rawPath,
      query,
      authorization: request.headers.authorization,
      readBody: async () => {
        const raw = await readBody(request);
        if (raw.abandoned) closeAfterAbandoned(request, response);
        return parseBody(raw, request.headers["content-type"]);
      },
    });
    if (outcome.kind === "drop") {
      request.socket.destroy();
      return;
    }
    reply(response, outcome.result, { truncate: outcome.truncate, html: outcome.html });
  }

  return (request: IncomingMessage, response: ServerResponse): void => {
    const url = request.url ?? "/";
    const queryAt = url.indexOf("?");
    const rawPath = queryAt < 0 ? url : url.slice(0, queryAt);
    const query = queryAt < 0 ? "" : url.slice(queryAt + 1);
    const isControl = rawPath === "/emulator" || rawPath.startsWith("/emulator/");
    const work = isControl
      ? handleControlRequest(request, response, rawPath, query)
      : handleApiRequest(request, response, rawPath, query);
    work.catch((error: unknown) => {
      // Last resort: a bug must still answer, not hang the client.
      process.stderr.write(`emulator: unexpected failure: ${describe(error)}\n`);
      if (!response.headersSent) {
        reply(response, errorResponse(new ApiError("INTERNAL", "Internal: unexpected failure")));
      } else {
        response.destroy();
      }
    });
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  process.stderr.write(`emulator: internal error: ${describe(error)}\n`);
  return new ApiError("INTERNAL", "Internal: the emulator failed to handle the request");
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
