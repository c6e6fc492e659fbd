/**
 * Shared plumbing of the resource classes: the request function they call, the
 * list query mapping and the decoding of list envelopes.
 */
import type { ListParams, Page, RequestOptions } from "../types";
import { int64Field, ShapeError, ShapeReader } from "./shape";
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

/** Int64 counters travel as strings; the SDK hands out numbers. */
export function int64(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return 0;
}

/**
 * Decodes a v2 list envelope whose array is under `key`, each item with `decodeItem`.
 * The array may be absent only for an empty result (proto3 JSON leaves out empty
 * arrays and zero counters); a non-empty `totalCount` without it is refused.
 */
export function decodePage<T>(
  body: unknown,
  key: string,
  decodeItem: (raw: unknown, at: string) => T,
): Page<T> {
  const envelope = ShapeReader.of(body, "list");
  const raw = envelope.raw[key];
  const totalCount = int64Field(envelope.raw.totalCount, "list.totalCount");
  if (raw === undefined && totalCount !== 0) {
    throw new ShapeError(`list.${key}`, `missing although totalCount is ${totalCount}`);
  }
  if (raw !== undefined && !Array.isArray(raw)) {
    throw new ShapeError(`list.${key}`, "expected an array");
  }
  const page: Page<T> = {
    items: (raw ?? []).map((item: unknown, index: number) => decodeItem(item, `${key}[${index}]`)),
    totalCount,
    skipped: int64Field(envelope.raw.skipped, "list.skipped"),
  };
  const next = envelope.optionalString("nextPageToken");
  if (next !== undefined && next !== "") page.nextPageToken = next;
  return page;
}
