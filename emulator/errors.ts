/**
 * AIP-193 errors as the API answers them: one class the handlers throw, turned
 * into `{ code, message, details }` with the HTTP status of `google.rpc.Code`.
 */

import { GRPC_STATUSES } from "../sdk/core/grpc-status";

/** The `domain` of every `ErrorInfo` detail the emulator produces. */
export const ERROR_DOMAIN = "iam.irm.local";

const TYPE_PREFIX = "type.googleapis.com/google.rpc.";

/**
 * The gRPC codes the emulator answers with. Each code's number and HTTP status are the
 * one `google.rpc.Code` table of the SDK (`sdk/core/grpc-status.ts`).
 */
export type GrpcCodeName =
  | "INVALID_ARGUMENT"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "RESOURCE_EXHAUSTED"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "UNAUTHENTICATED";

/** The codes the emulator answers with, each with its number and HTTP status. */
export const GRPC: { readonly [N in GrpcCodeName]: (typeof GRPC_STATUSES)[N] } = GRPC_STATUSES;

export interface FieldViolation {
  field: string;
  description: string;
}

export interface PreconditionViolation {
  type: string;
  subject: string;
  description: string;
}

export type ErrorDetail = Record<string, unknown> & { "@type": string };

export interface ErrorBody {
  code: number;
  message: string;
  details: ErrorDetail[];
}

export class ApiError extends Error {
  constructor(
    readonly codeName: GrpcCodeName,
    message: string,
    readonly extraDetails: ErrorDetail[] = [],
    /** Extra response headers (`Retry-After`, `WWW-Authenticate`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }

  get httpStatus(): number {
    return GRPC[this.codeName].http;
  }

  toBody(): ErrorBody {
    return {
      code: GRPC[this.codeName].code,
      message: this.message,
      details: [
        { "@type": `${TYPE_PREFIX}ErrorInfo`, reason: this.codeName, domain: ERROR_DOMAIN },
        ...this.extraDetails,
      ],
    };
  }
}

/** `Invalid argument: <field>: <reason>` with a BadRequest naming the field. */
export function invalidArgument(field: string, reason: string): ApiError {
  return new ApiError("INVALID_ARGUMENT", `Invalid argument: ${field}: ${reason}`, [
    { "@type": `${TYPE_PREFIX}BadRequest`, fieldViolations: [{ field, description: reason }] },
  ]);
}

/** `Precondition failed: <reason>` with one PreconditionFailure violation. */
export function failedPrecondition(violation: PreconditionViolation): ApiError {
  return new ApiError("FAILED_PRECONDITION", `Precondition failed: ${violation.description}`, [
    { "@type": `${TYPE_PREFIX}PreconditionFailure`, violations: [violation] },
  ]);
}

/** `Aborted: <reason>`: a write raced another (AIP-154: an etag that no longer matches). */
export function aborted(reason: string): ApiError {
  return new ApiError("ABORTED", `Aborted: ${reason}`);
}

export function notFound(what: string): ApiError {
  return new ApiError("NOT_FOUND", `Not found: ${what}`);
}

export function alreadyExists(what: string): ApiError {
  return new ApiError("ALREADY_EXISTS", `Already exists: ${what}`);
}

export function permissionDenied(capability: string, uid: string): ApiError {
  return new ApiError("PERMISSION_DENIED", `Permission denied: ${capability} on ${uid}`);
}

export function unauthenticated(reason: string): ApiError {
  return new ApiError("UNAUTHENTICATED", `Unauthenticated: ${reason}`, [], {
    "WWW-Authenticate": 'Bearer error="invalid_token"',
  });
}

export function unavailable(reason: string): ApiError {
  return new ApiError("UNAVAILABLE", `Unavailable: ${reason}`);
}

export function resourceExhausted(retryAfterSeconds: number): ApiError {
  return new ApiError(
    "RESOURCE_EXHAUSTED",
    `Resource exhausted: rate limit reached, retry after ${retryAfterSeconds}s`,
    [{ "@type": `${TYPE_PREFIX}RetryInfo`, retryDelay: `${retryAfterSeconds}s` }],
    { "Retry-After": String(retryAfterSeconds) },
  );
}

/** The error for an HTTP status a fault injects, with the matching gRPC code. */
export function errorForStatus(status: number, retryAfterSeconds?: number): ApiError {
  if (status === 429) return resourceExhausted(retryAfterSeconds ?? 1);
  const byStatus: Record<number, GrpcCodeName> = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ALREADY_EXISTS",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
  };
  const codeName = byStatus[status] ?? (status >= 500 ? "UNAVAILABLE" : "INVALID_ARGUMENT");
  const headers: Record<string, string> =
    retryAfterSeconds !== undefined ? { "Retry-After": String(retryAfterSeconds) } : {};
  return new ApiError(codeName, `Injected fault: HTTP ${status}`, [], headers);
}
