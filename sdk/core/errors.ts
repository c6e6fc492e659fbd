/**
 * Typed errors. Every failure the SDK reports is an `IrmError` carrying a gRPC
 * `code`: API errors are decoded once from their AIP-193 body (`errorFromResponse`),
 * transport failures map to the code a gRPC client would report.
 *
 * Errors never hold request headers, and their messages are redacted, so that no
 * token can appear in a message, a log line or `toString()`.
 */
import { codeName, GrpcCode, restCodeOfHttpStatus } from "./grpc-status";
import { redact } from "./redact";
import { isRecord } from "./shape";

// The gRPC codes, by name and number, are the one table of `grpc-status.ts`.
export { codeName, GRPC_CODE_NAMES, GrpcCode, type GrpcCodeName } from "./grpc-status";

export interface FieldViolation {
  field: string;
  description: string;
}

export interface PreconditionViolation {
  type: string;
  subject?: string;
  description: string;
}

/** Which request failed; never its headers or body. */
export interface RequestSummary {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Host (and port) that answered; never user info or the query. */
  host?: string;
}

export interface IrmErrorInit {
  code: number;
  message: string;
  /** HTTP status; 0 when no response was received. */
  status?: number;
  reason?: string;
  domain?: string;
  fieldViolations?: FieldViolation[];
  preconditionViolations?: PreconditionViolation[];
  request?: RequestSummary;
  /** Delay the server asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** Base of every error the SDK throws. */
export class IrmError extends Error {
  override name = "IrmError";
  /** gRPC status code (`google.rpc.Code`). */
  readonly code: number;
  /** Name of `code`, e.g. `NOT_FOUND`. */
  readonly codeName: string;
  /** HTTP status; 0 when no response was received. */
  readonly status: number;
  /** `ErrorInfo.reason`, e.g. `INVALID_ARGUMENT`; empty when the service sent none. */
  readonly reason: string;
  /** `ErrorInfo.domain`; empty when the service sent none. */
  readonly domain: string;
  readonly fieldViolations: FieldViolation[];
  readonly preconditionViolations: PreconditionViolation[];
  readonly request?: RequestSummary;
  readonly retryAfterMs?: number;

  constructor(init: IrmErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.codeName = codeName(init.code);
    this.status = init.status ?? 0;
    this.reason = init.reason ?? "";
    this.domain = init.domain ?? "";
    this.fieldViolations = init.fieldViolations ?? [];
    this.preconditionViolations = init.preconditionViolations ?? [];
    this.request = init.request;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The base of an error class that adds nothing but its `name`, spelled out (a bundler
 * may rename classes, and `name` is what a log line shows).
 */
function named(name: string) {
  return class extends IrmError {
    override name = name;
  };
}

/** 3: a field, mask path, page size, ordering or page token was rejected. */
export class InvalidArgumentError extends named("InvalidArgumentError") {}
/** 5: no resource with that uid. */
export class NotFoundError extends named("NotFoundError") {}
/** 6: e.g. the same role binding already exists. */
export class AlreadyExistsError extends named("AlreadyExistsError") {}
/** 7: the caller's roles lack the capability, or a built-in role was changed. */
export class PermissionDeniedError extends named("PermissionDeniedError") {}
/** 9: the resource is not in a state that allows the call. */
export class FailedPreconditionError extends named("FailedPreconditionError") {}
/** 8: rate limited; `retryAfterMs` holds the server's hint when it gave one. */
export class RateLimitedError extends named("RateLimitedError") {}
/** 14: the service is overloaded or down. */
export class UnavailableError extends named("UnavailableError") {}
/** 16: missing, malformed, expired or wrongly addressed token. */
export class UnauthenticatedError extends named("UnauthenticatedError") {}
/** 13: a bug in the service. */
export class InternalError extends named("InternalError") {}
/** 9 with a `RESOURCE_NOT_EMPTY` violation: a group still has children. */
export class ResourceNotEmptyError extends FailedPreconditionError {
  override name = "ResourceNotEmptyError";
}

/**
 * A non-idempotent request (a create) may or may not have taken effect: the
 * connection failed after the request was sent. It is not retried; list or get
 * to find out whether the resource exists before trying again.
 */
export class OutcomeUnknownError extends IrmError {
  override name = "OutcomeUnknownError";
  /**
   * True when the service may still be working on the request (the client timed out,
   * or a gateway answered 504): a look-up right away can miss an object that appears
   * moments later.
   */
  readonly mayStillBeRunning: boolean;
  constructor(init: IrmErrorInit & { mayStillBeRunning?: boolean }) {
    super(init);
    this.mayStillBeRunning = init.mayStillBeRunning ?? false;
  }
}
/** No response: the connection was refused, reset or dropped. */
export class ConnectionError extends IrmError {
  override name = "ConnectionError";
  /** True when the failure happened before any byte of the request was sent. */
  readonly beforeSend: boolean;
  constructor(init: IrmErrorInit & { beforeSend: boolean }) {
    super(init);
    this.beforeSend = init.beforeSend;
  }
}
/** A response that is not a decodable API answer: HTML from a proxy, empty or truncated body. */
export class BadResponseError extends named("BadResponseError") {}
/** An attempt exceeded its timeout. */
export class TimeoutError extends named("TimeoutError") {}

// --- decoding --------------------------------------------------------------

type ErrorClass = new (init: IrmErrorInit) => IrmError;

/**
 * The class of each code an AIP-193 body may carry; a code without its own class
 * decodes to a plain `IrmError` (its `codeName` still says which).
 */
const CLASS_BY_CODE: Readonly<Partial<Record<number, ErrorClass>>> = {
  [GrpcCode.INVALID_ARGUMENT]: InvalidArgumentError,
  [GrpcCode.NOT_FOUND]: NotFoundError,
  [GrpcCode.ALREADY_EXISTS]: AlreadyExistsError,
  [GrpcCode.PERMISSION_DENIED]: PermissionDeniedError,
  [GrpcCode.RESOURCE_EXHAUSTED]: RateLimitedError,
  [GrpcCode.FAILED_PRECONDITION]: FailedPreconditionError,
  [GrpcCode.INTERNAL]: InternalError,
  [GrpcCode.UNAVAILABLE]: UnavailableError,
  [GrpcCode.UNAUTHENTICATED]: UnauthenticatedError,
};

function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** The part of a `@type` URL after the last `.` (`type.googleapis.com/google.rpc.ErrorInfo` → `ErrorInfo`). */
function detailKind(detail: Record<string, unknown>): string {
  const type = str(detail["@type"]);
  return type.slice(type.lastIndexOf(".") + 1);
}

/**
 * True when `body` has the shape of an AIP-193 error: a `message` string and a
 * `code` that names a failure (1 to 16). `OK` or a number outside `google.rpc.Code`
 * is no error the API can send, so such a body is reported as a bad response.
 */
export function isStatusBody(body: unknown): body is Record<string, unknown> {
  return (
    isRecord(body) &&
    Number.isInteger(body.code) &&
    (body.code as number) > GrpcCode.OK &&
    (body.code as number) <= GrpcCode.UNAUTHENTICATED &&
    typeof body.message === "string"
  );
}

export interface DecodeContext {
  status: number;
  request?: RequestSummary;
  retryAfterMs?: number;
  /** Configured tokens to redact from the server's message in addition to token-shaped strings. */
  secrets?: Iterable<string>;
}

/**
 * Decodes an AIP-193 body into the matching typed error. The class is chosen from
 * the gRPC code and `ErrorInfo.reason` (never from the HTTP status, which is 400
 * for both INVALID_ARGUMENT and FAILED_PRECONDITION).
 */
export function errorFromStatusBody(
  body: Record<string, unknown>,
  context: DecodeContext,
): IrmError {
  const code = body.code as number;
  const details = Array.isArray(body.details) ? body.details.filter(isRecord) : [];
  let reason = "";
  let domain = "";
  const fieldViolations: FieldViolation[] = [];
  const preconditionViolations: PreconditionViolation[] = [];
  let retryInfoMs: number | undefined;
  for (const detail of details) {
    switch (detailKind(detail)) {
      case "RetryInfo":
        retryInfoMs = durationMs(detail.retryDelay);
        break;
      case "ErrorInfo":
        reason = str(detail.reason);
        domain = str(detail.domain);
        break;
      case "BadRequest":
        for (const v of Array.isArray(detail.fieldViolations) ? detail.fieldViolations : []) {
          if (isRecord(v))
            fieldViolations.push({
              field: redact(str(v.field), context.secrets),
              description: redact(str(v.description), context.secrets),
            });
        }
        break;
      case "PreconditionFailure":
        for (const v of Array.isArray(detail.violations) ? detail.violations : []) {
          if (!isRecord(v)) continue;
          const violation: PreconditionViolation = {
            type: str(v.type),
            description: redact(str(v.description), context.secrets),
          };
          if (typeof v.subject === "string") violation.subject = redact(v.subject, context.secrets);
          preconditionViolations.push(violation);
        }
        break;
    }
  }
  const resourceNotEmpty =
    code === GrpcCode.FAILED_PRECONDITION &&
    (reason === "RESOURCE_NOT_EMPTY" ||
      preconditionViolations.some((v) => v.type === "RESOURCE_NOT_EMPTY"));
  const ErrorClass = resourceNotEmpty ? ResourceNotEmptyError : (CLASS_BY_CODE[code] ?? IrmError);
  return new ErrorClass({
    code,
    message: redact(str(body.message), context.secrets),
    status: context.status,
    reason,
    domain,
    fieldViolations,
    preconditionViolations,
    request: context.request,
    // The Retry-After header wins; RetryInfo says the same for clients without headers.
    retryAfterMs: context.retryAfterMs ?? retryInfoMs,
  });
}

/** A protobuf JSON Duration (`"1.5s"`) in milliseconds. */
function durationMs(value: unknown): number | undefined {
  const match = typeof value === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(value) : null;
  return match ? Math.round(Number(match[1]) * 1000) : undefined;
}

/** Longest excerpt of an unexpected body kept in a message. */
const EXCERPT_LENGTH = 120;

/**
 * Builds the error for a response whose body is not an AIP-193 error: HTML from
 * a proxy, an empty body, truncated JSON. The HTTP status is all there is, so it
 * decides the code.
 */
export function badResponseError(
  problem: string,
  body: string,
  contentType: string,
  context: DecodeContext,
): BadResponseError {
  const excerpt = redact(body.replace(/\s+/g, " ").trim(), context.secrets).slice(
    0,
    EXCERPT_LENGTH,
  );
  const where = context.request
    ? ` from ${context.request.method} ${context.request.host ?? ""}${context.request.path}`
    : "";
  const type = contentType ? ` (${contentType})` : "";
  const shown = excerpt ? `: ${JSON.stringify(excerpt)}` : "";
  return new BadResponseError({
    code:
      context.status >= 200 && context.status < 300
        ? GrpcCode.UNKNOWN
        : restCodeOfHttpStatus(context.status),
    message: `Bad response${where}: HTTP ${context.status}${type}, ${problem}${shown}`,
    status: context.status,
    request: context.request,
    retryAfterMs: context.retryAfterMs,
  });
}

// --- type guards -----------------------------------------------------------

/** A guard true exactly for instances of the classes given. */
function guard<T extends IrmError>(
  ...classes: ReadonlyArray<abstract new (init: never) => T>
): (error: unknown) => error is T {
  return (error): error is T => classes.some((errorClass) => error instanceof errorClass);
}

// Each guard is true exactly for the class it names. API errors get their class
// from the decoded body's code (and reason), so a guard is true only for what the
// API itself said: a proxy's 403 page or a 401 that is not an AIP-193 body is a
// `BadResponseError`, for which every guard below is false.

/**
 * True for a NOT_FOUND the API itself reported in an AIP-193 body (also after a
 * repeated delete). A 404 page from a proxy or a wrong URL is a `BadResponseError`,
 * never NOT_FOUND; a token exchange's NOT_FOUND is reported as UNAUTHENTICATED.
 * Whether it means that a given object is gone is `ReadableCollection.isGone`'s call.
 */
export const isNotFound = guard(NotFoundError);
/** True for the API's INVALID_ARGUMENT. */
export const isInvalidArgument = guard(InvalidArgumentError);
/** True for the API's PERMISSION_DENIED. */
export const isPermissionDenied = guard(PermissionDeniedError);
/** True for the API's UNAUTHENTICATED (also a token exchange's refusal). */
export const isUnauthenticated = guard(UnauthenticatedError);
/** True for FAILED_PRECONDITION with a `RESOURCE_NOT_EMPTY` violation. */
export const isResourceNotEmpty = guard(ResourceNotEmptyError);
/** True for the API's RESOURCE_EXHAUSTED (after the retries). */
export const isRateLimited = guard(RateLimitedError);
/** True for the API's UNAVAILABLE (after the retries) and for connection failures. */
export const isUnavailable = guard<UnavailableError | ConnectionError>(
  UnavailableError,
  ConnectionError,
);
