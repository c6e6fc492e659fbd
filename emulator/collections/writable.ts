/**
 * One writable collection: List, Get, Create, Update (with update masks) and Delete,
 * with the checks of every write in the addendum's order, the first failure answering:
 *
 * 1. the uid in the path is well formed (INVALID_ARGUMENT on `uid` or `parent`);
 * 2. the caller holds the operation's capabilities on the target (PERMISSION_DENIED);
 * 3. the body is valid (INVALID_ARGUMENT naming the first bad field);
 * 4. referenced objects exist (NOT_FOUND);
 * 5. a referenced role may be used in that group (INVALID_ARGUMENT);
 * 6. the caller holds every capability the write promises to grant (PERMISSION_DENIED);
 * 7. uniqueness (ALREADY_EXISTS).
 *
 * A collection module describes its records and its rules; this module owns the order,
 * so that a new collection is one small file and every collection answers alike.
 */
import type { Access } from "../access";
import { invalidArgument } from "../errors";
import type { IndexedCollection } from "../indexed-collection";
import { type CollectionName, capabilityFor, type RecordOf } from "../kinds";
import {
  type ListFilter,
  type ListOptions,
  type ListParams,
  type OrderField,
  parseListParams,
  runList,
} from "../listing";
import {
  type ApiRequest,
  type ApiResponse,
  bodyObject,
  type JsonObject,
  ok,
  updatePaths,
} from "../requests";
import type { State } from "../state";
import * as kit from "./kit";

export interface StoredRecord {
  uid: string;
  createTime: string;
  updateTime: string;
}

/** What a write passes through steps 4 to 7, in this order; each step may be absent. */
export interface WriteSteps<W> {
  /** 4: the objects the write names exist (and may be read by the caller). */
  references?(write: W): void;
  /** 5: a role the write names may be used in the write's group. */
  roleUsable?(write: W): void;
  /** 6: the caller holds every capability the write promises to grant. */
  grants?(write: W): void;
  /** 7: nothing else already holds what must be unique. */
  unique?(write: W): void;
}

/** Everything a create's steps see. */
export interface CreateWrite<D> {
  ctx: kit.EmulatorContext;
  access: Access;
  parentUid: string;
  draft: D;
}

/** Everything an update's steps see. */
export interface UpdateWrite<T> {
  ctx: kit.EmulatorContext;
  access: Access;
  current: T;
  next: T;
  /** The paths applied (from the mask, or from the body without one). */
  paths: string[];
}

export type Verb = "get" | "update" | "delete";

/** The collection whose records are exactly `T`. */
type NameOf<T> = {
  [N in CollectionName]: [RecordOf<N>] extends [T]
    ? [T] extends [RecordOf<N>]
      ? N
      : never
    : never;
}[CollectionName];

export interface WritableSpec<T extends StoredRecord, D> {
  /**
   * The kind (`kinds.ts`): the path segment, the list key, the collection of the
   * capabilities and the state's store, which holds records of type `T`.
   */
  name: NameOf<T>;
  /** The record as the API answers it to `access`. */
  out(ctx: kit.EmulatorContext, record: T, access: Access): JsonObject;
  /** The record as a List answers it, when a List shows less than a Get; default `out`. */
  listOut?(ctx: kit.EmulatorContext, record: T, access: Access): JsonObject;
  /**
   * Steps 1 and 2 for Get, Update and Delete. The default: `uid` is a path uid and the
   * caller holds the verb's capability on it (a Get needs the collection's LIST). May answer the record when finding it is part of
   * the check (flat uids have no group to check a capability on before the look-up).
   */
  authorize?(ctx: kit.EmulatorContext, access: Access, uid: string, verb: Verb): T | undefined;
  /** The record at `uid` once authorized; default: the stored one, else NOT_FOUND `uid`. */
  load?(ctx: kit.EmulatorContext, uid: string): T;
  list: ListSpec<T>;
  create?: CreateSpec<T, D>;
  update?: UpdateSpec<T>;
  delete?: DeleteSpec<T>;
}

export interface ListSpec<T> {
  /** Collection-specific exact-match filters, as `parseListParams` reads them. */
  filters?: readonly ListFilter[];
  /** `order_by` fields and the `name` filter, when they differ from the common ones. */
  options?: ListOptions;
  /**
   * The `name` sort key of a record, as `reader` sees it: ordering must reveal nothing
   * the answer does not show, so a name the answer blanks for this reader sorts as
   * blank (else a caller could bisect it with names of its own).
   */
  sortName(ctx: kit.EmulatorContext, record: T, reader: Access): string;
  /**
   * Whether `sortName` depends on the reader (a binding's identity name): such an order
   * cannot come from the collection's shared order index, which holds one key a record.
   */
  sortNameByReader?: boolean;
  /** The sort key of an order field beyond the common ones (e.g. `expirationTime`). */
  sortValue?(record: T, field: OrderField): string | undefined;
  /**
   * Which records the caller sees; default: the LIST capability on the record's uid (with no
   * per-item check when one grant covers the whole scope).
   */
  visible?(ctx: kit.EmulatorContext, access: Access, record: T): boolean;
  /** Extra condition from the filters; undefined when no filter applies. */
  match?(ctx: kit.EmulatorContext, params: ListParams): ((record: T) => boolean) | undefined;
  /** For flat uids: the group a record hangs under (see `ListRequest.scopeParentOf`). */
  scopeParentOf?(record: T): string;
}

export interface CreateSpec<T, D> extends WriteSteps<CreateWrite<D>> {
  /** Why the parent belongs in the path, for a POST without one. */
  parentHint: string;
  /**
   * The collection the parent belongs to (step 4 checks it exists there); default
   * `groups`. A mapping, for one, is created under an identity provider.
   */
  parentCollection?: CollectionName;
  /** Step 2: the capabilities the caller needs on the parent; default the CREATE one. */
  capabilities?: string[];
  /**
   * The parent's uid from the path as the caller gave it, for a collection that takes
   * more than a uid there (a group's parent: a uid, a uid suffix or a group's name);
   * default: a uid. Not called without a parent when `root` is given.
   */
  parent?(ctx: kit.EmulatorContext, access: Access, given: string): string;
  /** The whole create of a record without a parent (a root organisation). */
  root?(ctx: kit.EmulatorContext, access: Access, body: JsonObject): T;
  /** Step 3: the body, validated. Step 4 then checks the parent group exists, then `references`. */
  body(ctx: kit.EmulatorContext, body: JsonObject, parentUid: string): D;
  /** The new record; called after every check passed. */
  build(ctx: kit.EmulatorContext, draft: D, parentUid: string, now: string): T;
  /** Stores the new record; default: insert into the store. */
  insert?(ctx: kit.EmulatorContext, record: T): void;
}

export interface UpdateSpec<T> extends WriteSteps<UpdateWrite<T>> {
  /** The update mask paths this collection accepts. */
  writable: readonly string[];
  /** Step 2 beyond the UPDATE capability on the uid (e.g. a capability on the record's group). */
  authorize?(ctx: kit.EmulatorContext, access: Access, current: T): void;
  /**
   * Step 3: `current` with the paths applied from the body, validated. `request` is
   * there for a collection whose mask paths depend on the record (an identity's `*`
   * stands for the object of its own kind).
   */
  apply(
    ctx: kit.EmulatorContext,
    current: T,
    body: JsonObject,
    paths: string[],
    masked: boolean,
    request: ApiRequest,
  ): T;
  /** The fields compared to tell a change from a no-op (no write, no new updateTime). */
  fields: ReadonlyArray<keyof T>;
  /** Stores the updated record; default: replace it in the store. */
  store?(ctx: kit.EmulatorContext, record: T): void;
}

export interface DeleteSpec<T> {
  /**
   * The record to delete once authorized; undefined makes the delete succeed with
   * nothing removed (an idempotent delete). Default: the spec's `load`.
   */
  load?(ctx: kit.EmulatorContext, uid: string): T | undefined;
  /** Refuses the delete (FAILED_PRECONDITION) while something still needs the record. */
  refuse?(ctx: kit.EmulatorContext, record: T): void;
  /** Removes the record; default: delete it from the store. */
  remove?(ctx: kit.EmulatorContext, record: T): void;
}

/** Runs the steps 4 to 7 a write declares, in order. */
function runSteps<W>(steps: WriteSteps<W>, write: W): void {
  steps.references?.(write);
  steps.roleUsable?.(write);
  steps.grants?.(write);
  steps.unique?.(write);
}

/** The request handler of a writable collection. */
export function writableCollection<T extends StoredRecord, D>(
  spec: WritableSpec<T, D>,
): kit.CollectionHandler {
  /** The kind's store; `NameOf<T>` ties its records to `T`. */
  const store = (state: State) => state.collection(spec.name) as unknown as IndexedCollection<T>;
  const authorize = (ctx: kit.EmulatorContext, access: Access, uid: string, verb: Verb) => {
    if (spec.authorize) return spec.authorize(ctx, access, uid, verb);
    kit.requirePathUid(uid);
    access.require(capabilityFor(spec.name, verb), uid);
    return undefined;
  };
  const load = (ctx: kit.EmulatorContext, uid: string): T =>
    spec.load ? spec.load(ctx, uid) : kit.existing(store(ctx.state), uid);

  function list(ctx: kit.EmulatorContext, request: ApiRequest, access: Access): ApiResponse {
    const listing = spec.list;
    const params = parseListParams(request.query, listing.filters, listing.options);
    let visible: ((record: T) => boolean) | undefined;
    if (listing.visible) {
      const see = listing.visible;
      visible = (record) => see(ctx, access, record);
    } else {
      const filter = access.listFilter(
        capabilityFor(spec.name, "list"),
        params.childrenOf ?? params.descendantsOf,
      );
      visible = filter && ((record) => filter(record.uid));
    }
    const match = listing.match?.(ctx, params);
    const common = kit.sortValueOf<T>((record) => listing.sortName(ctx, record, access));
    const result = runList<T>({
      collectionKey: spec.name,
      collection: store(ctx.state),
      params,
      sortValue: (record, field) => listing.sortValue?.(record, field) ?? common(record, field),
      predicate:
        visible && match
          ? (record) => visible(record) && match(record)
          : (visible ?? match ?? undefined),
      scopeParentOf: listing.scopeParentOf,
      orderIndex: !(listing.sortNameByReader === true && params.orderField === "name"),
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    const shape = spec.listOut ?? spec.out;
    return kit.listEnvelope(spec.name, result, (record) => shape(ctx, record, access));
  }

  function create(
    ctx: kit.EmulatorContext,
    request: ApiRequest,
    access: Access,
    uid: string | undefined,
  ): ApiResponse {
    const creating = spec.create;
    if (!creating) throw kit.unsupported(request);
    if (uid === undefined && creating.root) {
      return ok(spec.out(ctx, creating.root(ctx, access, bodyObject(request)), access));
    }
    if (uid === undefined) throw invalidArgument("parent", creating.parentHint);
    const parentUid = creating.parent
      ? creating.parent(ctx, access, uid)
      : kit.requirePathUid(uid, "parent");
    for (const capability of creating.capabilities ?? [capabilityFor(spec.name, "create")]) {
      access.require(capability, parentUid);
    }
    const draft = creating.body(ctx, bodyObject(request), parentUid);
    // Step 4 begins with the parent: a group, unless the collection says otherwise.
    kit.existing(ctx.state.collection(creating.parentCollection ?? "groups"), parentUid);
    runSteps(creating, { ctx, access, parentUid, draft });
    const record = creating.build(ctx, draft, parentUid, ctx.clock.isoNow());
    if (creating.insert) creating.insert(ctx, record);
    else store(ctx.state).insert(record);
    ctx.state.touch();
    return ok(spec.out(ctx, record, access));
  }

  function update(
    ctx: kit.EmulatorContext,
    request: ApiRequest,
    access: Access,
    uid: string,
  ): ApiResponse {
    const updating = spec.update;
    if (!updating) throw kit.unsupported(request);
    const found = authorize(ctx, access, uid, "update");
    const body = bodyObject(request);
    const { paths, masked } = updatePaths(request, body, updating.writable);
    const current = found ?? load(ctx, uid);
    updating.authorize?.(ctx, access, current);
    const next = updating.apply(ctx, current, body, paths, masked, request);
    runSteps(updating, { ctx, access, current, next, paths });
    const stored = kit.saveUpdate(ctx, current, next, updating.fields, (record) => {
      if (updating.store) updating.store(ctx, record);
      else store(ctx.state).replace(record);
    });
    return ok(spec.out(ctx, stored, access));
  }

  function remove(
    ctx: kit.EmulatorContext,
    request: ApiRequest,
    access: Access,
    uid: string,
  ): ApiResponse {
    const deleting = spec.delete;
    if (!deleting) throw kit.unsupported(request);
    const found = authorize(ctx, access, uid, "delete");
    const record = found ?? (deleting.load ? deleting.load(ctx, uid) : load(ctx, uid));
    if (record === undefined) return ok({});
    deleting.refuse?.(ctx, record);
    if (deleting.remove) deleting.remove(ctx, record);
    else store(ctx.state).delete(record.uid);
    ctx.state.touch();
    return ok({});
  }

  return async (ctx, request, uid) => {
    const access = await kit.callerOf(ctx, request, true);
    switch (request.method) {
      case "GET": {
        if (uid === undefined) return list(ctx, request, access);
        const found = authorize(ctx, access, uid, "get");
        return ok(spec.out(ctx, found ?? load(ctx, uid), access));
      }
      case "POST":
        return create(ctx, request, access, uid);
      case "PATCH":
        if (uid === undefined) throw kit.unsupported(request);
        return update(ctx, request, access, uid);
      case "DELETE":
        if (uid === undefined) throw kit.unsupported(request);
        return remove(ctx, request, access, uid);
      default:
        throw kit.unsupported(request);
    }
  };
}
