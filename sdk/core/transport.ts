/**
 * One HTTP attempt over undici, turned into a decoded JSON body or a typed error.
 *
 * Redirects are never followed (undici's `request` does not), so a bearer token
 * only ever goes to the URL the SDK built from the configured base or auth URL.
 */
import type { Dispatcher } from "undici";
import {
  BadResponseError,
  badResponseError,
  ConnectionError,
  type DecodeContext,
  errorFromStatusBody,
  GrpcCode,
  type IrmError,
  isStatusBody,
  OutcomeUnknownError,
  type RequestSummary,
  TimeoutError,
} from "./errors";
import { undici } from "./lazy-modules";
import { redact } from "./redact";
import { parseRetryAfter } from "./retry";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface HttpRequest {
  method: HttpMethod;
  url: URL;
  /** JSON-encoded when present. */
  body?: unknown;
  /** Sent as `application/x-www-form-urlencoded` instead of a JSON body (token exchange). */
  form?: URLSearchParams;
  /** Sent as `Authorization: Bearer ...`; never stored in errors. */
  bearer?: string;
  signal?: AbortSignal;
  timeoutMs: number;
  /** False for creates: a request that may have been received is then never repeated. */
  idempotent: boolean;
  /** Accept an empty 2xx body as `{}` (delete). */
  allowEmptyBody?: boolean;
  /** Secrets to redact from anything the server echoes back. */
  secrets?: Iterable<string>;
  /** Largest body read; a longer one is abandoned (`BadResponseError`). */
  maxResponseBytes: number;
  /** Told of every decodable answer's `Date` header, for the server clock. */
  onServerDate?: (observation: ServerDateObservation) => void;
}

/** A `Date` header and the local times between which the server wrote it. */
export interface ServerDateObservation {
  /** The header's time (one-second resolution, rounded down by the server). */
  serverDateMs: number;
  /** Local wall time just before the request was sent. */
  sentAtMs: number;
  /** Local wall time when the answer's headers arrived. */
  receivedAtMs: number;
}

const USER_AGENT = "pulumi-irm-sdk/0.1";

/**
 * Node and undici codes of failures that happen while connecting, before any byte
 * of the request is written: repeating such a request is always harmless.
 */
const CONNECT_PHASE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function errorCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  // AggregateError from happy-eyeballs connects carries the code on its members.
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length > 0) return errorCode(inner[0]);
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined ? "" : errorCode(cause);
}

/** A plain copy of a low-level error (name, code, message), so nothing else leaks into `cause`. */
function sanitizedCause(error: unknown, secrets?: Iterable<string>): Error {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(redact(code ? `${code}: ${message}` : message, secrets));
  copy.name = error instanceof Error ? error.name : "Error";
  return copy;
}

function summaryOf(req: HttpRequest): RequestSummary {
  // `host` never carries user info (credentials in a URL), the path never the query.
  return { method: req.method, path: req.url.pathname, host: req.url.host };
}

function describe(summary: RequestSummary): string {
  return `${summary.method} ${summary.host ?? ""}${summary.path}`;
}

/** Thrown while reading a body that outgrows `maxResponseBytes`. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`body larger than ${limit} bytes`);
  }
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes: a longer body is abandoned
 * (the stream destroyed, the connection closed) instead of filling memory.
 */
export async function readCapped(
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => unknown },
  limit: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) {
      const error = new BodyTooLarge(limit);
      body.destroy?.(error);
      throw error;
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Maps a failure without a (complete) response to a typed error. `status` is the
 * HTTP status when headers had arrived before the body broke off, else 0.
 */
function transportError(
  error: unknown,
  req: HttpRequest,
  timedOut: boolean,
  status: number,
): IrmError {
  const request = summaryOf(req);
  const cause = sanitizedCause(error, req.secrets);
  const code = errorCode(error);
  const beforeSend = !timedOut && status === 0 && CONNECT_PHASE_CODES.has(code);
  if (!req.idempotent && !beforeSend) {
    return new OutcomeUnknownError({
      code: GrpcCode.UNKNOWN,
      status,
      request,
      cause,
      mayStillBeRunning: timedOut,
      message:
        `${describe(request)}: ${timedOut ? "timed out" : "connection lost"} after the request was sent; ` +
        "it may or may not have taken effect. Not retried: look the resource up before trying again.",
    });
  }
  if (timedOut) {
    return new TimeoutError({
      code: GrpcCode.DEADLINE_EXCEEDED,
      status,
      request,
      cause,
      message: `${describe(request)}: no complete answer within ${req.timeoutMs} ms`,
    });
  }
  if (status !== 0) {
    return new BadResponseError({
      code: GrpcCode.UNAVAILABLE,
      status,
      request,
      cause,
      message: `${describe(request)}: HTTP ${status} body broke off (${code || "connection closed"})`,
    });
  }
  return new ConnectionError({
    code: GrpcCode.UNAVAILABLE,
    status: 0,
    request,
    cause,
    beforeSend,
    message: `${describe(request)}: ${beforeSend ? "could not connect" : "connection lost before an answer"} (${code || cause.message})`,
  });
}

/** Performs one attempt. Resolves with the parsed JSON body of a 2xx answer. */
export async function sendOnce(dispatcher: Dispatcher, req: HttpRequest): Promise<unknown> {
  const timeoutSignal = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeoutSignal]) : timeoutSignal;
  const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
  if (req.bearer !== undefined) headers.authorization = `Bearer ${req.bearer}`;
  let payload: string | undefined;
  if (req.form !== undefined) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    payload = req.form.toString();
  } else if (req.body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(req.body);
  }

  let status = 0;
  let text: string;
  let contentType = "";
  let retryAfter: string | undefined;
  let dateHeader: string | undefined;
  let receivedAtMs = 0;
  const sentAtMs = Date.now();
  try {
    const response = await undici().request(req.url, {
      method: req.method,
      headers,
      body: payload,
      dispatcher,
      signal,
      idempotent: req.idempotent,
    });
    status = response.statusCode;
    contentType = String(response.headers["content-type"] ?? "");
    const retryAfterHeader = response.headers["retry-after"];
    retryAfter = Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader;
    const date = response.headers.date;
    dateHeader = Array.isArray(date) ? date[0] : date;
    receivedAtMs = Date.now();
    text = await readCapped(response.body, req.maxResponseBytes);
  } catch (error) {
    // The caller's own cancellation is reported as is, never retried.
    if (req.signal?.aborted) throw req.signal.reason;
    if (error instanceof BodyTooLarge) {
      const context = { status, request: summaryOf(req), secrets: req.secrets };
      throw unknownOutcomeIfCreate(
        req,
        badResponseError(`body larger than ${error.limit} bytes`, "", contentType, context),
      );
    }
    throw transportError(error, req, timeoutSignal.aborted, status);
  }

  const context: DecodeContext = {
    status,
    request: summaryOf(req),
    retryAfterMs: parseRetryAfter(retryAfter),
    secrets: req.secrets,
  };
  const success = status >= 200 && status < 300;
  if (text.trim() === "") {
    if (success && req.allowEmptyBody) return {};
    throw unknownOutcomeIfCreate(req, badResponseError("empty body", text, contentType, context));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const looksLikeJson = /json/i.test(contentType) || /^\s*[[{]/.test(text);
    const problem = looksLikeJson ? "truncated or invalid JSON" : "not JSON";
    throw unknownOutcomeIfCreate(req, badResponseError(problem, text, contentType, context));
  }
  if (success || isStatusBody(parsed)) observeDate(req, dateHeader, sentAtMs, receivedAtMs);
  if (success) return parsed;
  // NOT_FOUND is what tells a caller an object is gone, so only the API's own (HTTP 404)
  // counts: a proxy or gateway that wraps its failure in a status body is a bad response.
  if (isStatusBody(parsed) && !(parsed.code === GrpcCode.NOT_FOUND && context.status !== 404)) {
    throw unknownOutcomeIfCreate(req, errorFromStatusBody(parsed, context));
  }
  throw unknownOutcomeIfCreate(
    req,
    badResponseError("unexpected shape", text, contentType, context),
  );
}

/**
 * Reports the `Date` of an answer that came from the API (a JSON success or an
 * AIP-193 error), never of a proxy's page, whose clock is another machine's.
 */
function observeDate(
  req: HttpRequest,
  header: string | undefined,
  sentAtMs: number,
  receivedAtMs: number,
): void {
  if (header === undefined || req.onServerDate === undefined) return;
  const serverDateMs = Date.parse(header);
  if (Number.isNaN(serverDateMs)) return;
  req.onServerDate({ serverDateMs, sentAtMs, receivedAtMs });
}

/**
 * A create that may well have happened is reported as an unknown outcome, never
 * retried: a garbled or unvalidated success; a 502/504 from a gateway that may have
 * forwarded it (whatever the body says); any other 5xx that is not the API's own
 * AIP-193 error with its ErrorInfo (a proxy's plain-text 503 says nothing about
 * whether the request was forwarded). The API's own decoded errors stay as they are:
 * its UNAVAILABLE is, by the project's API decisions, an overload refusal before
 * acting, and is retried (see `isRetryable` and docs/sdk.md, Retries).
 */
function unknownOutcomeIfCreate(req: HttpRequest, error: IrmError): IrmError {
  const garbledSuccess =
    error instanceof BadResponseError && error.status >= 200 && error.status < 300;
  // Every API error carries an ErrorInfo (project API decisions): a 5xx body without
  // one, or one that is not AIP-193 at all, is a proxy's and proves nothing.
  const notFromApi =
    error.status >= 500 &&
    (error instanceof BadResponseError || (error.reason === "" && error.domain === ""));
  const mayHaveHappened =
    garbledSuccess || notFromApi || error.status === 502 || error.status === 504;
  if (req.idempotent || !mayHaveHappened) return error;
  return new OutcomeUnknownError({
    code: GrpcCode.UNKNOWN,
    status: error.status,
    request: error.request,
    cause: error,
    mayStillBeRunning: error.status === 504,
    message: `${describe(summaryOf(req))}: ${error.message}; the create may or may not have taken effect. Not retried: look the resource up before trying again.`,
  });
}
