/** What a handler sees of a request, what it answers, and body validation helpers. */
import { type ApiError, invalidArgument } from "./errors";

export interface ApiRequest {
  method: string;
  /** The path with percent-escapes decoded (a uid may arrive with `%2F` for `/`). */
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** Why the body could not be read (malformed JSON, too large, wrong type); thrown by `bodyObject`. */
  bodyError?: ApiError;
  /** An `application/x-www-form-urlencoded` body (only the token exchange reads one). */
  form?: URLSearchParams;
  authorization?: string;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export function ok(body: unknown): ApiResponse {
  return { status: 200, body };
}

export type JsonObject = Record<string, unknown>;

/** The request body as an object; a missing body counts as `{}`. */
export function bodyObject(request: ApiRequest): JsonObject {
  if (request.bodyError) throw request.bodyError;
  if (request.body === undefined) return {};
  if (typeof request.body !== "object" || request.body === null || Array.isArray(request.body)) {
    throw invalidArgument("body", "must be a JSON object");
  }
  return request.body as JsonObject;
}

/**
 * An optional field of one JSON type: absent or null answers undefined, any other value
 * that fails `is` is INVALID_ARGUMENT on `path`, saying it `must be <what>`.
 */
function optionalField<T>(
  what: string,
  is: (value: unknown) => boolean,
): (body: JsonObject, field: string, path?: string) => T | undefined {
  return (body, field, path = field) => {
    const value = body[field];
    if (value === undefined || value === null) return undefined;
    if (!is(value)) throw invalidArgument(path, `must be ${what}`);
    return value as T;
  };
}

/** A string field; absent or null answers undefined, another type is an error naming the field. */
export const optionalString = optionalField<string>("a string", (v) => typeof v === "string");

export const optionalBoolean = optionalField<boolean>("a boolean", (v) => typeof v === "boolean");

export const optionalObject = optionalField<JsonObject>(
  "an object",
  (v) => typeof v === "object" && !Array.isArray(v),
);

export const optionalStringArray = optionalField<string[]>(
  "an array of strings",
  (v) => Array.isArray(v) && v.every((item) => typeof item === "string"),
);

export const optionalNumber = optionalField<number>(
  "a number",
  (v) => typeof v === "number" && Number.isFinite(v),
);

/** A block value the gateway's implied mask names whole: null, or an empty object. */
export function leafless(value: unknown): boolean {
  return (
    value === null ||
    (typeof value === "object" &&
      !Array.isArray(value) &&
      Object.keys(value as object).length === 0)
  );
}

/**
 * The field paths a PATCH changes, in the JSON spelling. With `updateMask` (or
 * `update_mask`), exactly its paths, proto names or JSON names (`*` = every top-level
 * writable field); without, the writable paths present in the body, as the gateway
 * builds the mask from it (grpc-gateway's `FieldMaskFromRequestBody`): a block's members
 * present, or the block itself when it has none (sent as `{}` or `null`).
 */
export function updatePaths(
  request: ApiRequest,
  body: JsonObject,
  writable: readonly string[],
  /** What `*` stands for; by default every top-level writable field. */
  star: readonly string[] = writable.filter((p) => !p.includes(".")),
): { paths: string[]; masked: boolean } {
  const rawMask = request.query.get("updateMask") ?? request.query.get("update_mask");
  if (rawMask === null || rawMask.trim() === "") {
    const paths = writable.filter((path) => {
      const [head, tail] = path.split(".");
      if (tail === undefined) {
        // A nested object given whole counts through its members (partial merge); one
        // without members is a leaf of the body, so the path of the block itself.
        if (body[head] === undefined) return false;
        return !writable.some((p) => p.startsWith(`${head}.`)) || leafless(body[head]);
      }
      const parent = body[head];
      return (
        parent !== undefined &&
        parent !== null &&
        typeof parent === "object" &&
        (parent as JsonObject)[tail] !== undefined
      );
    });
    // A nested field of the wrong type is still reported, naming it.
    for (const path of writable) {
      if (!path.includes(".") && writable.some((p) => p.startsWith(`${path}.`))) {
        optionalObject(body, path);
      }
    }
    return { paths, masked: false };
  }
  const paths: string[] = [];
  for (const raw of rawMask.split(",")) {
    const given = raw.trim();
    if (given === "*") {
      paths.push(...star);
      continue;
    }
    const path = jsonPath(given);
    if (!writable.includes(path)) {
      throw invalidArgument(
        "update_mask",
        `"${given}" is not a writable field; writable fields: ${writable.map(protoPath).join(", ")}`,
      );
    }
    paths.push(path);
  }
  return { paths: [...new Set(paths)], masked: true };
}

/**
 * A mask path in the JSON spelling the handlers use. The server resolves mask paths
 * against the proto messages, so the proto names (`claim_match.subject_pattern`) are
 * the API's spelling; the JSON names (`claimMatch.subjectPattern`) are accepted too.
 */
export function jsonPath(path: string): string {
  return path.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** A JSON path in the proto spelling (`defaultRole` -> `default_role`), for messages. */
export function protoPath(path: string): string {
  return path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
