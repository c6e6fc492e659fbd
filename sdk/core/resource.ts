/**
 * Shared plumbing of the resource classes: the request function they call, the
 * list query mapping and the decoding of list envelopes.
 */
import type { ListParams, Page, RequestOptions } from "./common-types";
import { int64Field, ShapeError, ShapeReader } from "./shape";
import type { HttpMethod } from "./transport";

/**
 * A query value: a scalar, or a list sent as the key repeated (`ids=a&ids=b`, as the
 * gateway reads repeated fields). `undefined`, `false` and `[]` leave the key out.
 */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

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

/**
 * Maps the common list parameters to their wire names: the fields of the request's
 * `uidp` filter (`uidp.ancestors_of`, ...), `name` and paging.
 */
export function listQuery(params: ListParams): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {
    "uidp.ancestors_of": params.ancestorsOf,
    "uidp.descendants_of": params.descendantsOf,
    "uidp.children_of": params.childrenOf,
    "uidp.in_root": params.inRoot === true ? "true" : undefined,
    "uidp.ids": params.ids,
    name: params.name,
    page_size: params.pageSize,
    page_token: params.pageToken,
    order_by: params.orderBy,
    skip: params.skip,
  };
  for (const key of ["pageSize", "skip"] as const) {
    const value = params[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new TypeError(`${key} must be a non-negative integer, got ${value}`);
    }
  }
  if (params.ids !== undefined) stringList("ids", params.ids);
  return query;
}

/** A list parameter as given, checked to be strings (before any request). */
export function stringList(name: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return value;
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
