/**
 * The List rules shared by every collection: scope filters, `name`, ordering,
 * `skip`, page size limits, and keyset page tokens bound to their query.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";
import { GROUP_UID_PATTERN } from "../sdk/uids";
import { invalidArgument } from "./errors";
import {
  entryBound,
  type IndexedCollection,
  type OrderEntry,
  type UidRange,
} from "./indexed-collection";

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
/** A page token older than this restarts the query (specification, "Limits"). */
export const PAGE_TOKEN_LIFETIME_MS = 3 * 24 * 60 * 60 * 1000;

export type OrderField = "uid" | "name" | "createTime" | "updateTime" | "expirationTime";

/** The `order_by` fields of most collections, with their aliases. */
export const ORDER_FIELDS: Readonly<Record<string, OrderField>> = {
  uid: "uid",
  name: "name",
  create_time: "createTime",
  createTime: "createTime",
  created_at: "createTime",
  update_time: "updateTime",
  updateTime: "updateTime",
  updated_at: "updateTime",
};

const ORDER_FIELDS_TEXT = "uid, name, create_time, update_time";

/**
 * A collection-specific exact-match filter: its key in `ListParams.filters`, and the
 * query names that carry it, the first present winning (snake_case first, then the
 * camelCase alias). A plain string is a filter with one name, its key.
 */
export type ListFilter = string | { key: string; names: readonly string[] };

export interface ListOptions {
  /** The `order_by` fields this collection accepts, with aliases; default `ORDER_FIELDS`. */
  orderFields?: Readonly<Record<string, OrderField>>;
  /** How the refusal of another field lists them; default `uid, name, create_time, update_time`. */
  orderFieldsText?: string;
  /** False for a collection without names (invites): the `name` parameter is ignored. */
  nameFilter?: boolean;
  /** The order without `order_by`; default `uid` ascending. */
  defaultOrder?: { field: OrderField; descending: boolean };
}

export interface ListParams {
  pageSize: number;
  skip: number;
  pageToken?: string;
  orderField: OrderField;
  descending: boolean;
  childrenOf?: string;
  descendantsOf?: string;
  /** `uidp.ancestors_of`: the records whose uid is a proper prefix of this uid. */
  ancestorsOf?: string;
  /** `uidp.in_root`: only records at the root (a uid without `/`). */
  inRoot: boolean;
  /** `uidp.ids`: only records with one of these exact uids. */
  ids?: string[];
  name?: string;
  /** Collection-specific exact-match filters (e.g. `packageName`). */
  filters: Record<string, string>;
}

/** First value of the first of `names` present in the query. */
function param(query: URLSearchParams, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = query.get(name);
    if (value !== null) return value;
  }
  return undefined;
}

function nonNegativeInteger(field: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw invalidArgument(field, "must be an integer");
  const value = Number(raw.trim());
  if (value < 0) throw invalidArgument(field, "must not be negative");
  if (!Number.isSafeInteger(value)) throw invalidArgument(field, "is too large");
  return value;
}

function scopeUid(field: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (!GROUP_UID_PATTERN.test(raw)) throw invalidArgument(field, "must be a group uid");
  return raw;
}

/** A bool query parameter as the gateway reads one: `true`/`false` (also `1`/`0`). */
function booleanParam(field: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === "") return false;
  const value = raw.trim().toLowerCase();
  if (value === "true" || value === "1" || value === "t") return true;
  if (value === "false" || value === "0" || value === "f") return false;
  throw invalidArgument(field, "must be true or false");
}

/** `uidp.ids`, repeated (`uidp.ids=a&uidp.ids=b`); undefined when none is given. */
function idsParam(query: URLSearchParams): string[] | undefined {
  const ids = [...query.getAll("uidp.ids")].filter((id) => id !== "");
  if (ids.length === 0) return undefined;
  for (const id of ids) {
    if (!GROUP_UID_PATTERN.test(id)) throw invalidArgument("uidp.ids", "must be uids");
  }
  return ids;
}

/** Parses the common list parameters (snake_case as specified, camelCase accepted too). */
export function parseListParams(
  query: URLSearchParams,
  filterNames: readonly ListFilter[] = [],
  options: ListOptions = {},
): ListParams {
  const orderFields = options.orderFields ?? ORDER_FIELDS;
  const requestedSize = nonNegativeInteger("page_size", param(query, "page_size", "pageSize"));
  const skip = nonNegativeInteger("skip", param(query, "skip")) ?? 0;
  const orderBy = (param(query, "order_by", "orderBy") ?? "").trim();
  let orderField: OrderField = options.defaultOrder?.field ?? "uid";
  let descending = options.defaultOrder?.descending ?? false;
  if (orderBy !== "") {
    const [field, direction, ...rest] = orderBy.split(/\s+/);
    const known = Object.hasOwn(orderFields, field) ? orderFields[field] : undefined;
    if (
      !known ||
      rest.length > 0 ||
      (direction !== undefined && !/^(asc|desc)$/i.test(direction))
    ) {
      throw invalidArgument(
        "order_by",
        `must be one of ${options.orderFieldsText ?? ORDER_FIELDS_TEXT}, optionally followed by asc or desc`,
      );
    }
    orderField = known;
    descending = direction?.toLowerCase() === "desc";
  }
  const filters: Record<string, string> = {};
  for (const filter of filterNames) {
    const { key, names } = typeof filter === "string" ? { key: filter, names: [filter] } : filter;
    const value = param(query, ...names);
    if (value !== undefined && value !== "") filters[key] = value;
  }
  const name = options.nameFilter === false ? undefined : param(query, "name");
  const pageToken = param(query, "page_token", "pageToken");
  return {
    pageSize: Math.min(requestedSize || DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    skip,
    pageToken: pageToken === "" ? undefined : pageToken,
    orderField,
    descending,
    childrenOf: scopeUid("uidp.children_of", param(query, "uidp.children_of", "uidp.childrenOf")),
    descendantsOf: scopeUid(
      "uidp.descendants_of",
      param(query, "uidp.descendants_of", "uidp.descendantsOf"),
    ),
    ancestorsOf: scopeUid(
      "uidp.ancestors_of",
      param(query, "uidp.ancestors_of", "uidp.ancestorsOf"),
    ),
    inRoot: booleanParam("uidp.in_root", param(query, "uidp.in_root", "uidp.inRoot")),
    ids: idsParam(query),
    name: name === "" ? undefined : name,
    filters,
  };
}

interface PageCursor {
  /** Hash of the query the token belongs to. */
  q: string;
  /** Sort key and uid of the last item of the previous page. */
  k: string;
  u: string;
  /** Issue time on the emulator clock, in ms. */
  t: number;
}

function queryHash(collectionKey: string, params: ListParams): string {
  const bound = [
    collectionKey,
    params.childrenOf ?? "",
    params.descendantsOf ?? "",
    params.ancestorsOf ?? "",
    params.inRoot ? "root" : "",
    JSON.stringify(params.ids ?? []),
    params.name ?? "",
    JSON.stringify(Object.entries(params.filters).sort()),
    params.orderField,
    params.descending ? "desc" : "asc",
  ];
  return createHash("sha256").update(JSON.stringify(bound)).digest("base64url").slice(0, 16);
}

/** Bytes of the random nonce and of the authentication tag in a page token. */
const TOKEN_IV_BYTES = 12;
const TOKEN_TAG_BYTES = 16;

/** The AES-256-GCM key of page tokens, derived from the emulator's page-token key. */
function cursorKey(key: Uint8Array): Buffer {
  return createHmac("sha256", key).update("page token cursor, AES-256-GCM").digest();
}

/**
 * `base64url(nonce | ciphertext | tag)`: the cursor (the last item's sort key and uid,
 * the query hash and the issue time) encrypted and authenticated with AES-256-GCM
 * under a key of this emulator (`TokenService.pageTokenKey`). A reader learns nothing
 * from a token (a sort key such as a hidden identity's name stays unread), and cannot
 * rewrite the issue time, the query or the position.
 */
function encodeCursor(cursor: PageCursor, key: Uint8Array): string {
  const iv = randomBytes(TOKEN_IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", cursorKey(key), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(cursor), "utf8"), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

function decodeCursor(token: string, key: Uint8Array): PageCursor {
  const malformed = invalidArgument("page_token", "is not a token this API issued");
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw malformed;
  const bytes = Buffer.from(token, "base64url");
  // Only the canonical encoding of the bytes is a token.
  if (bytes.toString("base64url") !== token) throw malformed;
  if (bytes.length <= TOKEN_IV_BYTES + TOKEN_TAG_BYTES) throw malformed;
  const iv = bytes.subarray(0, TOKEN_IV_BYTES);
  const tag = bytes.subarray(bytes.length - TOKEN_TAG_BYTES);
  const sealed = bytes.subarray(TOKEN_IV_BYTES, bytes.length - TOKEN_TAG_BYTES);
  let payload: string;
  try {
    const decipher = createDecipheriv("aes-256-gcm", cursorKey(key), iv);
    decipher.setAuthTag(tag);
    payload = Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8");
  } catch {
    throw invalidArgument("page_token", "has been altered or was issued by another emulator");
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(payload);
  } catch {
    throw malformed;
  }
  if (typeof decoded !== "object" || decoded === null) throw malformed;
  const cursor = decoded as Partial<PageCursor>;
  if (
    typeof cursor.q !== "string" ||
    typeof cursor.k !== "string" ||
    typeof cursor.u !== "string" ||
    typeof cursor.t !== "number"
  ) {
    throw malformed;
  }
  return cursor as PageCursor;
}

export interface ListRequest<T extends { uid: string }> {
  /** Distinguishes collections so a token of one cannot page another. */
  collectionKey: string;
  collection: IndexedCollection<T>;
  params: ListParams;
  sortValue: (record: T, field: OrderField) => string;
  /** Extra condition on each candidate (visibility, collection filters); undefined = none. */
  predicate?: (record: T) => boolean;
  /**
   * For collections whose uids are flat (roles): the group a record hangs under, so
   * `uidp.descendants_of=X` matches records under X or below instead of a uid range.
   */
  scopeParentOf?: (record: T) => string;
  /**
   * False when `sortValue` of this order depends on who asks: the collection's order
   * index keeps one key a record, shared by every caller. Default true.
   */
  orderIndex?: boolean;
  nowMs: number;
  /** Key of the page tokens' HMAC, one per emulator (see `TokenService.pageTokenKey`). */
  pageTokenKey: Uint8Array;
}

export interface ListResult<T> {
  items: T[];
  nextPageToken: string;
  totalCount: number;
  skipped: number;
}

function compareKeys(aKey: string, aUid: string, bKey: string, bUid: string): number {
  if (aKey !== bKey) return aKey < bKey ? -1 : 1;
  if (aUid !== bUid) return aUid < bUid ? -1 : 1;
  return 0;
}

/** Is `uid` strictly below `ancestor`? Used when candidates come from another index. */
function isStrictDescendant(uid: string, ancestor: string): boolean {
  return uid.startsWith(`${ancestor}/`);
}

/**
 * Below this many wanted items (skip + page size), a page is picked by one pass
 * keeping only the best items instead of sorting every match: ordering 100,000
 * groups by name then costs one scan, not a sort.
 */
const PARTIAL_SELECTION_LIMIT = 2000;

/**
 * A page ordered by a field other than uid, read from the collection's order index:
 * walk it from the cursor and keep what lies in the range, instead of scanning the
 * whole range. Undefined (scan instead) when the range is too sparse in the index for
 * the walk to be cheaper; the walk also gives up once it has cost as much as a scan,
 * so it never costs more than twice the scan. Only without extra conditions, so the
 * total is the range's size.
 */
function pageFromOrderIndex<T extends { uid: string }>(
  request: ListRequest<T>,
  range: UidRange,
  inRange: (record: T) => boolean,
  cursor: PageCursor | undefined,
  hash: string,
): ListResult<T> | undefined {
  const { collection, params } = request;
  const total = range.end - range.start;
  const wanted = params.skip + params.pageSize + 1;
  // Records of the range are assumed spread evenly through the index.
  const expectedVisits = (wanted * collection.size) / Math.max(total, 1);
  if (total === 0 || expectedVisits > total / 2) return undefined;
  const field = params.orderField;
  const entries = collection.orderedBy(field, (record) => request.sortValue(record, field));
  const step = params.descending ? -1 : 1;
  let position: number;
  if (cursor) {
    const after: OrderEntry = { key: cursor.k, uid: cursor.u };
    position = params.descending
      ? entryBound(entries, after) - 1
      : entryBound(entries, after, true);
  } else {
    position = params.descending ? entries.length - 1 : 0;
  }
  const picked: OrderEntry[] = [];
  let visits = 0;
  for (let at = position; at >= 0 && at < entries.length && picked.length < wanted; at += step) {
    if (++visits > total) return undefined;
    const record = collection.get(entries[at].uid);
    if (record && inRange(record)) picked.push(entries[at]);
  }
  return pageOf(request, picked, wanted, total, hash);
}

/**
 * The page of `matches` (the first `wanted` in list order: the page, what it skips and
 * one more) and, when there is that one more, the token of the next page.
 */
function pageOf<T extends { uid: string }>(
  request: ListRequest<T>,
  matches: ReadonlyArray<{ key: string; uid: string }>,
  wanted: number,
  total: number,
  hash: string,
): ListResult<T> {
  const { collection, params } = request;
  const page = matches.slice(params.skip, params.skip + params.pageSize);
  const items: T[] = [];
  for (const entry of page) {
    const record = collection.get(entry.uid);
    if (record) items.push(record);
  }
  const last = page[page.length - 1];
  const nextPageToken =
    last && matches.length === wanted
      ? encodeCursor({ q: hash, k: last.key, u: last.uid, t: request.nowMs }, request.pageTokenKey)
      : "";
  return { items, nextPageToken, totalCount: total, skipped: params.skip };
}

function selectPage<T extends { uid: string }>(
  request: ListRequest<T>,
  range: UidRange,
  conditions: Array<(record: T) => boolean>,
  cursor: PageCursor | undefined,
  hash: string,
): ListResult<T> {
  const { collection, params } = request;
  const direction = params.descending ? -1 : 1;
  const wanted = params.skip + params.pageSize + 1;
  // The best `wanted` matches after the cursor, kept sorted in list order.
  const best: Array<{ key: string; uid: string }> = [];
  let total = 0;
  for (let index = range.start; index < range.end; index++) {
    const record = collection.get(range.uids[index]);
    if (!record || !conditions.every((condition) => condition(record))) continue;
    total++;
    const key =
      params.orderField === "uid" ? record.uid : request.sortValue(record, params.orderField);
    if (cursor && direction * compareKeys(key, record.uid, cursor.k, cursor.u) <= 0) continue;
    if (best.length === wanted) {
      const worst = best[wanted - 1];
      if (direction * compareKeys(key, record.uid, worst.key, worst.uid) >= 0) continue;
    }
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (direction * compareKeys(best[mid].key, best[mid].uid, key, record.uid) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, { key, uid: record.uid });
    if (best.length > wanted) best.pop();
  }
  return pageOf(request, best, wanted, total, hash);
}

export function runList<T extends { uid: string }>(request: ListRequest<T>): ListResult<T> {
  const { collection, params } = request;
  const hash = queryHash(request.collectionKey, params);
  let cursor: PageCursor | undefined;
  if (params.pageToken !== undefined) {
    cursor = decodeCursor(params.pageToken, request.pageTokenKey);
    if (cursor.q !== hash) {
      throw invalidArgument("page_token", "belongs to another query (filters or order changed)");
    }
    // Expired tokens silently restart the query from its first page.
    if (request.nowMs - cursor.t > PAGE_TOKEN_LIFETIME_MS) cursor = undefined;
  }

  // Candidates: the narrowest index, always sorted by uid ascending.
  const conditions: Array<(record: T) => boolean> = [];
  let range: UidRange;
  /** Whether a record lies in `range`, for walking an order index instead (name filter: no). */
  let inRange: ((record: T) => boolean) | undefined;
  if (params.name !== undefined) {
    const named = collection.named(params.name);
    range = { uids: named, start: 0, end: named.length };
    if (params.childrenOf !== undefined) {
      const children = new Set(collection.childrenOf(params.childrenOf).uids);
      conditions.push((record) => children.has(record.uid));
    }
    if (params.descendantsOf !== undefined) {
      const ancestor = params.descendantsOf;
      conditions.push((record) => isStrictDescendant(record.uid, ancestor));
    }
  } else if (params.childrenOf !== undefined) {
    range = collection.childrenOf(params.childrenOf);
    const parent = params.childrenOf;
    inRange = (record) => collection.scopeParentOf(record) === parent;
    if (params.descendantsOf !== undefined) {
      const ancestor = params.descendantsOf;
      conditions.push((record) => isStrictDescendant(record.uid, ancestor));
    }
  } else if (params.descendantsOf !== undefined && !request.scopeParentOf) {
    range = collection.descendantsOf(params.descendantsOf);
    const ancestor = params.descendantsOf;
    inRange = (record) => isStrictDescendant(record.uid, ancestor);
  } else {
    range = collection.all();
    inRange = () => true;
  }
  const scopeParentOf = request.scopeParentOf;
  if (scopeParentOf && params.descendantsOf !== undefined) {
    // Replaces the uid-path conditions above, which mean nothing for flat uids.
    const ancestor = params.descendantsOf;
    conditions.length = 0;
    if (params.childrenOf !== undefined) {
      const parent = params.childrenOf;
      conditions.push((record) => scopeParentOf(record) === parent);
    }
    conditions.push((record) => {
      const parent = scopeParentOf(record);
      return parent === ancestor || parent.startsWith(`${ancestor}/`);
    });
  }
  if (params.ancestorsOf !== undefined) {
    const descendant = params.ancestorsOf;
    conditions.push((record) => descendant.startsWith(`${record.uid}/`));
  }
  if (params.inRoot) conditions.push((record) => !record.uid.includes("/"));
  if (params.ids !== undefined) {
    const ids = new Set(params.ids);
    conditions.push((record) => ids.has(record.uid));
  }
  if (request.predicate) conditions.push(request.predicate);

  if (
    conditions.length === 0 &&
    inRange !== undefined &&
    params.orderField !== "uid" &&
    request.orderIndex !== false
  ) {
    const page = pageFromOrderIndex(request, range, inRange, cursor, hash);
    if (page) return page;
  }

  const descending = params.descending;
  const direction = descending ? -1 : 1;
  let total: number;
  let keyAt: (index: number) => string;
  let uidAt: (index: number) => string;

  if (conditions.length === 0 && params.orderField === "uid") {
    // Fast path: the range already is the answer, in order; no copy, no scan.
    const { uids, start, end } = range;
    total = end - start;
    uidAt = descending ? (index) => uids[end - 1 - index] : (index) => uids[start + index];
    keyAt = uidAt;
  } else if (params.skip + params.pageSize < PARTIAL_SELECTION_LIMIT) {
    return selectPage(request, range, conditions, cursor, hash);
  } else {
    const matches: Array<{ key: string; uid: string }> = [];
    for (let index = range.start; index < range.end; index++) {
      const record = collection.get(range.uids[index]);
      if (!record || !conditions.every((condition) => condition(record))) continue;
      const key =
        params.orderField === "uid" ? record.uid : request.sortValue(record, params.orderField);
      matches.push({ key, uid: record.uid });
    }
    if (params.orderField !== "uid") {
      matches.sort((a, b) => direction * compareKeys(a.key, a.uid, b.key, b.uid));
    } else if (descending) {
      matches.reverse();
    }
    total = matches.length;
    keyAt = (index) => matches[index].key;
    uidAt = (index) => matches[index].uid;
  }

  // Keyset cursor: the page starts after the last item of the previous page,
  // so inserts and deletes between pages neither repeat nor skip survivors.
  let position = 0;
  if (cursor) {
    const after = cursor;
    let lo = 0;
    let hi = total;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (direction * compareKeys(keyAt(mid), uidAt(mid), after.k, after.u) <= 0) lo = mid + 1;
      else hi = mid;
    }
    position = lo;
  }
  const begin = position + params.skip;
  const end = Math.min(begin + params.pageSize, total);
  const items: T[] = [];
  for (let index = begin; index < end; index++) {
    const record = collection.get(uidAt(index));
    if (record) items.push(record);
  }
  const nextPageToken =
    end < total && end > begin
      ? encodeCursor(
          { q: hash, k: keyAt(end - 1), u: uidAt(end - 1), t: request.nowMs },
          request.pageTokenKey,
        )
      : "";
  return { items, nextPageToken, totalCount: total, skipped: params.skip };
}
