/**
 * Shared plumbing of the resource classes: the request function they call, the
 * list query mapping and the decoding of list envelopes.
 */
import type { ListParams, Page, RequestOptions } from "../types";
import { badResponseError } from "./errors";
import type { HttpMethod } from "./transport";

export type QueryValue = string | number | undefined;

export interface ApiCall {
  method: HttpMethod;
  /** Already-encoded path below the base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  options?: RequestOptions;
}

/** What resource classes need from the client. */
export interface ApiRequester {
  call(call: ApiCall): Promise<unknown>;
}

export abstract class ApiResource {
  protected readonly client: ApiRequester;
  constructor(client: ApiRequester) {
    this.client = client;
  }
}

/** Maps camelCase list parameters to their wire names. */
export function listQuery(
  params: ListParams & { packageName?: string },
): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    "uidp.descendants_of": params.descendantsOf,
    "uidp.children_of": params.childrenOf,
    name: params.name,
    page_size: params.pageSize,
    page_token: params.pageToken,
    order_by: params.orderBy,
    skip: params.skip,
    packageName: params.packageName,
  };
  for (const key of ["pageSize", "skip"] as const) {
    const value = params[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new TypeError(`${key} must be a non-negative integer, got ${value}`);
    }
  }
  return query;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Int64 counters travel as strings; the SDK hands out numbers. */
export function int64(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return 0;
}

/** Checks that a body is a JSON object before it is used as a resource. */
export function asObject(body: unknown, what: string): Record<string, unknown> {
  if (!isRecord(body)) {
    const shown = `${what}: ${JSON.stringify(body) ?? String(body)}`;
    throw badResponseError("unexpected shape", shown, "application/json", { status: 200 });
  }
  return body;
}

/** Decodes a v2 list envelope whose array is under `key`. */
export function decodePage<T>(
  body: unknown,
  key: string,
  decodeItem: (raw: Record<string, unknown>) => T,
): Page<T> {
  const envelope = asObject(body, "list envelope");
  const raw = envelope[key] ?? [];
  if (!Array.isArray(raw)) {
    throw badResponseError("unexpected shape", `"${key}" is not an array`, "application/json", {
      status: 200,
    });
  }
  const page: Page<T> = {
    items: raw.map((item) => decodeItem(asObject(item, key))),
    totalCount: int64(envelope.totalCount),
    skipped: int64(envelope.skipped),
  };
  if (typeof envelope.nextPageToken === "string" && envelope.nextPageToken !== "") {
    page.nextPageToken = envelope.nextPageToken;
  }
  return page;
}
