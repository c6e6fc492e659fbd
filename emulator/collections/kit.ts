/**
 * What every collection module shares: the emulator context, who is calling, uid and
 * name validators, list envelopes and the small record helpers. The collection modules
 * stay small because the rules they share live here once.
 */

import { GROUP_UID_PATTERN, parentOf } from "../../sdk/uids";
import { Access } from "../access";
import type { Clock } from "../clock";
import { ApiError, invalidArgument, notFound, unauthenticated } from "../errors";
import type { IndexedCollection } from "../indexed-collection";
import { capabilityFor } from "../kinds";
import { type OrderField, parseListParams, runList } from "../listing";
import { type IdentityRecord, NAME_PATTERN, NAME_PATTERN_TEXT } from "../model";
import { type ApiRequest, type ApiResponse, type JsonObject, ok } from "../requests";
import { childSegment, type State } from "../state";
import type { TokenService } from "../tokens";

// The uid patterns and `parentOf` are the SDK's (`sdk/uids.ts`), re-exported for the collections.
export { FLAT_UID_PATTERN, GROUP_UID_PATTERN, parentOf } from "../../sdk/uids";

export interface EmulatorContext {
  state: State;
  clock: Clock;
  tokens: TokenService;
  /** `http://HOST:PORT`: base URL, auth URL and API token audience. */
  origin: string;
}

/** Answers one request to a collection; `uid` is the rest of the path, if any. */
export type CollectionHandler = (
  ctx: EmulatorContext,
  request: ApiRequest,
  uid: string | undefined,
) => Promise<ApiResponse>;

/** lastSeenTime is refreshed at most this often, so reads do not rewrite the data file each time. */
const LAST_SEEN_RESOLUTION_MS = 60_000;

// ---------------------------------------------------------------- the caller

/**
 * Who is calling. A presented token is always checked; without one the caller is
 * anonymous, which only public registry reads accept.
 */
export async function callerOf(
  ctx: EmulatorContext,
  request: ApiRequest,
  required: boolean,
): Promise<Access> {
  const header = request.authorization;
  if (header === undefined || header === "") {
    if (required) throw unauthenticated("a bearer token is required");
    return new Access(ctx.state, undefined);
  }
  const token = bearerTokenOf(header);
  if (!token) throw unauthenticated("the Authorization header must be 'Bearer <token>'");
  const identityUid = await ctx.tokens.verifyApiToken(token, ctx.clock.now());
  const identity = ctx.state.identities.get(identityUid);
  if (!identity) throw unauthenticated("the token's identity no longer exists");
  markSeen(ctx, identity);
  return new Access(ctx.state, identityUid);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined for any other form. */
export function bearerTokenOf(header: string | undefined): string | undefined {
  return /^Bearer[ \t]+(\S+)\s*$/i.exec(header ?? "")?.[1];
}

/** Records that `identity` acted now (at most once per resolution step). */
export function markSeen(ctx: EmulatorContext, identity: IdentityRecord): void {
  const nowMs = ctx.clock.nowMs();
  const last = identity.lastSeenTime ? Date.parse(identity.lastSeenTime) : 0;
  if (nowMs - last >= LAST_SEEN_RESOLUTION_MS) {
    // A replace, not an edit in place: the --data journal records replaced records.
    ctx.state.identities.replace({ ...identity, lastSeenTime: new Date(nowMs).toISOString() });
    ctx.state.touch();
  }
}

/**
 * A v1 write on one object, `PUT` or `DELETE .../<id>`: the caller (a token required),
 * the id in the path (UNIMPLEMENTED without one, as v1 offers no such call), and
 * `capability` held on it, checked in that order. Answers the uid.
 */
export async function v1WriteTarget(
  ctx: EmulatorContext,
  request: ApiRequest,
  rest: string | undefined,
  capability: string,
): Promise<string> {
  const access = await callerOf(ctx, request, true);
  if (rest === undefined) throw unsupported(request);
  const uid = requirePathUid(rest, "id");
  access.require(capability, uid);
  return uid;
}

/**
 * The filter the v1 registry lists share (`id`, `name`, `uidp.descendants_of`,
 * `uidp.children_of`; the `uidp` keys also in camelCase), its uids checked: a predicate
 * on a repo or a tag.
 */
export function v1RegistryFilter(
  query: URLSearchParams,
): (record: { uid: string; name: string }) => boolean {
  const id = query.get("id") || undefined;
  const name = query.get("name") || undefined;
  const under = query.get("uidp.descendants_of") ?? query.get("uidp.descendantsOf");
  const children = query.get("uidp.children_of") ?? query.get("uidp.childrenOf");
  if (id) requirePathUid(id, "id");
  if (under) requirePathUid(under, "uidp.descendants_of");
  if (children) requirePathUid(children, "uidp.children_of");
  return (record) =>
    (!id || record.uid === id) &&
    (!name || record.name === name) &&
    (!children || parentOf(record.uid) === children) &&
    (!under || record.uid.startsWith(`${under}/`));
}

// ---------------------------------------------------------------- validators

export function requirePathUid(uid: string, what = "uid"): string {
  if (!GROUP_UID_PATTERN.test(uid))
    throw invalidArgument(what, "must be a uid (hex segments separated by /)");
  return uid;
}

/** A role uid: a built-in role's flat uid, or a custom role's `<group uid>/<16 hex>`. */
export function requireRoleUid(uid: string, field = "uid"): string {
  if (!GROUP_UID_PATTERN.test(uid)) {
    throw invalidArgument(field, "must be a role uid (hex segments separated by /)");
  }
  return uid;
}

export function requireName(value: unknown, field = "name"): string {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || !NAME_PATTERN.test(value)) {
    throw invalidArgument(field, `must match ${NAME_PATTERN_TEXT}`);
  }
  return value;
}

/**
 * The name of a group, an identity or an identity provider: the common pattern, and 3
 * to 63 characters (the definitions at HEAD: "Must be 3-63 characters", corrections 17).
 * `kept`, on an update, is the stored name: restating it is no change and passes, so an
 * object named before the rule (a `--data` file of an earlier version) stays writable.
 */
export function requireSizedName(value: unknown, field = "name", kept?: string): string {
  const name = requireName(value, field);
  if (name === kept) return name;
  const length = [...name].length;
  if (length < 3 || length > 63) {
    throw invalidArgument(field, "must be 3 to 63 characters");
  }
  return name;
}

// ---------------------------------------------------------------- records

/** A fresh `<parent>/<16 hex>` that `taken` does not claim. */
export function newChildUid(parentUid: string, taken: (uid: string) => boolean): string {
  for (;;) {
    const uid = `${parentUid}/${childSegment()}`;
    if (!taken(uid)) return uid;
  }
}

export function existing<T extends { uid: string }>(
  collection: IndexedCollection<T>,
  uid: string,
): T {
  const record = collection.get(uid);
  if (!record) throw notFound(uid);
  return record;
}

/**
 * Stores the result of a PATCH, unless it equals `current` in every writable field:
 * then nothing is written, `updateTime` stays, and the state does not count a change
 * (no rewrite of the `--data` file). Answers the record now stored.
 */
export function saveUpdate<T extends { updateTime: string }>(
  ctx: EmulatorContext,
  current: T,
  next: T,
  fields: ReadonlyArray<keyof T>,
  store: (record: T) => void,
): T {
  const unchanged = fields.every(
    (field) => JSON.stringify(current[field]) === JSON.stringify(next[field]),
  );
  if (unchanged) return current;
  next.updateTime = ctx.clock.isoNow();
  store(next);
  ctx.state.touch();
  return next;
}

// ---------------------------------------------------------------- answers

/** The sort key of `field` for the common order fields; `nameOf` gives the `name` key. */
export function sortValueOf<T extends { uid: string; createTime: string; updateTime: string }>(
  nameOf: (record: T) => string,
): (record: T, field: OrderField) => string {
  return (record, field) => {
    switch (field) {
      case "name":
        return nameOf(record);
      case "createTime":
        return record.createTime;
      case "updateTime":
        return record.updateTime;
      default:
        return record.uid;
    }
  };
}

export function listEnvelope<T>(
  key: string,
  result: { items: T[]; nextPageToken: string; totalCount: number; skipped: number },
  shape: (item: T) => JsonObject,
): ApiResponse {
  return ok({
    [key]: result.items.map(shape),
    nextPageToken: result.nextPageToken,
    totalCount: String(result.totalCount),
    skipped: result.skipped,
  });
}

export function unsupported(request: ApiRequest): ApiError {
  return new ApiError(
    "UNIMPLEMENTED",
    `Unimplemented: ${request.method} is not supported on ${request.path}`,
  );
}

/** `["2 identities", "1 repo"]` for the counts above zero. */
export function countsOfPresent(parts: Array<[number, string, string]>): string[] {
  return parts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
}

/**
 * A collection that only reads (the registry and advisories): GET of the list or of one
 * uid, anonymous callers admitted (each collection decides what they may see).
 */
export function readOnlyCollection(
  list: (ctx: EmulatorContext, request: ApiRequest, access: Access) => ApiResponse,
  get: (ctx: EmulatorContext, access: Access, uid: string) => ApiResponse,
): CollectionHandler {
  return async (ctx, request, uid) => {
    if (request.method !== "GET") throw unsupported(request);
    const access = await callerOf(ctx, request, false);
    return uid === undefined ? list(ctx, request, access) : get(ctx, access, uid);
  };
}

/** Unreadable and missing look the same to an anonymous caller; others learn which it is. */
export function getReadable<T extends { uid: string }>(
  access: Access,
  collection: IndexedCollection<T>,
  uid: string,
  capability: string,
  readable: (record: T) => boolean,
): T {
  requirePathUid(uid);
  const record = collection.get(uid);
  if (record && readable(record)) return record;
  if (!access.authenticated) throw unauthenticated("a bearer token is required for this resource");
  access.require(capability, uid);
  if (!record) throw notFound(uid);
  return record;
}

/**
 * A registry collection (repos, tags): read only, `name` its order field, and each
 * item readable by anyone when `isPublic` says so (a public repo, a tag of one), else
 * with `<key>.list` / `<key>.get` on the item.
 */
export function registryCollection<
  T extends { uid: string; name: string; createTime: string; updateTime: string },
>(spec: {
  key: "repos" | "tags";
  records: (state: State) => IndexedCollection<T>;
  out: (record: T) => JsonObject;
  isPublic: (state: State, record: T) => boolean;
  /** The collection's own list filters: a key binding them to page tokens, and a predicate. */
  filters?: (query: URLSearchParams) => { key: string; match?: (record: T) => boolean };
}): CollectionHandler {
  const { key, records, out, isPublic } = spec;
  return readOnlyCollection(
    (ctx, request, access) => {
      const params = parseListParams(request.query);
      const filter = access.listFilter(
        capabilityFor(key, "list"),
        params.childrenOf ?? params.descendantsOf,
      );
      const own = spec.filters?.(request.query);
      if (own) params.filters[key] = own.key;
      const visible = filter && ((record: T) => isPublic(ctx.state, record) || filter(record.uid));
      const match = own?.match;
      const result = runList<T>({
        collectionKey: key,
        collection: records(ctx.state),
        params,
        sortValue: sortValueOf<T>((record) => record.name),
        predicate:
          visible && match ? (record) => visible(record) && match(record) : (visible ?? match),
        nowMs: ctx.clock.nowMs(),
        pageTokenKey: ctx.tokens.pageTokenKey,
      });
      return listEnvelope(key, result, out);
    },
    (ctx, access, uid) =>
      ok(
        out(
          getReadable(
            access,
            records(ctx.state),
            uid,
            capabilityFor(key, "get"),
            (record) =>
              isPublic(ctx.state, record) || access.can(capabilityFor(key, "get"), record.uid),
          ),
        ),
      ),
  );
}
