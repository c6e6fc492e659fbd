/**
 * gRPC status codes, one table: each `google.rpc.Code` by name, with its number and the
 * HTTP status the API's REST face answers for it (grpc-gateway's
 * `runtime.HTTPStatusFromCode`; the contract suite compares the table with both). The
 * SDK's errors, the emulator's errors and the emulator's gRPC face read it; beside it
 * stand the two readings of an HTTP status that carries no code, one for each face.
 */

/** `google.rpc.Code` by name: its number and the HTTP status of the REST face. */
export const GRPC_STATUSES = {
  OK: { code: 0, http: 200 },
  CANCELLED: { code: 1, http: 499 },
  UNKNOWN: { code: 2, http: 500 },
  INVALID_ARGUMENT: { code: 3, http: 400 },
  DEADLINE_EXCEEDED: { code: 4, http: 504 },
  NOT_FOUND: { code: 5, http: 404 },
  ALREADY_EXISTS: { code: 6, http: 409 },
  PERMISSION_DENIED: { code: 7, http: 403 },
  RESOURCE_EXHAUSTED: { code: 8, http: 429 },
  FAILED_PRECONDITION: { code: 9, http: 400 },
  ABORTED: { code: 10, http: 409 },
  OUT_OF_RANGE: { code: 11, http: 400 },
  UNIMPLEMENTED: { code: 12, http: 501 },
  INTERNAL: { code: 13, http: 500 },
  UNAVAILABLE: { code: 14, http: 503 },
  DATA_LOSS: { code: 15, http: 500 },
  UNAUTHENTICATED: { code: 16, http: 401 },
} as const;

export type GrpcCodeName = keyof typeof GRPC_STATUSES;

const NAMES = Object.keys(GRPC_STATUSES) as GrpcCodeName[];

/** The numbers by name (`GrpcCode.NOT_FOUND` is 5), derived from {@link GRPC_STATUSES}. */
export const GrpcCode = Object.freeze(
  Object.fromEntries(NAMES.map((name) => [name, GRPC_STATUSES[name].code])),
) as { readonly [N in GrpcCodeName]: (typeof GRPC_STATUSES)[N]["code"] };

/** The names by number, derived from {@link GRPC_STATUSES}. */
export const GRPC_CODE_NAMES: Readonly<Record<number, GrpcCodeName>> = Object.freeze(
  Object.fromEntries(NAMES.map((name) => [GRPC_STATUSES[name].code, name])),
);

/** The name of a gRPC code (`5` → `NOT_FOUND`); `CODE_<n>` for a number outside the table. */
export function codeName(code: number): string {
  return GRPC_CODE_NAMES[code] ?? `CODE_${code}`;
}

/** The HTTP status the REST face answers for a code (`NOT_FOUND` → 404). */
export function httpStatusOf(name: GrpcCodeName): number {
  return GRPC_STATUSES[name].http;
}

/**
 * How each face reads an HTTP status that came without a code (a proxy's page, an empty
 * body), where the reading is not the default. `grpc`: what a gRPC client reports for
 * an HTTP/2 answer without `grpc-status`, gRPC's own mapping
 * (`http-grpc-status-mapping.md`; the emulator's gRPC face, for an answer of its
 * pipeline that carries no code); by default UNKNOWN. `rest`: what the SDK reports for
 * a REST answer whose body is not the API's error, the table above read backwards where
 * one code owns the status, except 404: a 404 that is not the API's own NOT_FOUND (a
 * wrong base URL) says nothing about the object asked for, so it is never NOT_FOUND; by
 * default INTERNAL for a 5xx, UNKNOWN otherwise.
 */
const CODELESS_HTTP_STATUSES: Readonly<Record<number, { grpc: GrpcCodeName; rest: GrpcCodeName }>> =
  {
    400: { grpc: "INTERNAL", rest: "INVALID_ARGUMENT" },
    401: { grpc: "UNAUTHENTICATED", rest: "UNAUTHENTICATED" },
    403: { grpc: "PERMISSION_DENIED", rest: "PERMISSION_DENIED" },
    404: { grpc: "UNIMPLEMENTED", rest: "UNKNOWN" },
    409: { grpc: "UNKNOWN", rest: "ALREADY_EXISTS" },
    429: { grpc: "UNAVAILABLE", rest: "RESOURCE_EXHAUSTED" },
    502: { grpc: "UNAVAILABLE", rest: "UNAVAILABLE" },
    503: { grpc: "UNAVAILABLE", rest: "UNAVAILABLE" },
    504: { grpc: "UNAVAILABLE", rest: "UNAVAILABLE" },
  };

/** The code a gRPC client reports for an HTTP status without `grpc-status`. */
export function grpcCodeOfHttpStatus(status: number): number {
  return GrpcCode[CODELESS_HTTP_STATUSES[status]?.grpc ?? "UNKNOWN"];
}

/** The code the SDK reports for a REST answer of this status whose body is not the API's error. */
export function restCodeOfHttpStatus(status: number): number {
  const fallback: GrpcCodeName = status >= 500 ? "INTERNAL" : "UNKNOWN";
  return GrpcCode[CODELESS_HTTP_STATUSES[status]?.rest ?? fallback];
}
