/**
 * The verbs every collection shares. Resource classes fix the path, the list key,
 * the types and the reader of their shape; read-only collections (registry,
 * advisories) offer list and get.
 *
 * Every answer is decoded here, through the collection's reader, and checked
 * against the request: a Get or Update answers the uid asked for, a Create an
 * object directly under the parent it was sent to, a scoped List only objects in
 * that scope. A wrong answer is a `BadResponseError` naming the field; for a create
 * it is an `OutcomeUnknownError` (the create may have happened: look it up).
 */

import { parentOf } from "../uids";
import type { ListParams, RequestOptions, UpdateOptions } from "./common-types";
import {
  BadResponseError,
  GrpcCode,
  type IrmError,
  NotFoundError,
  OutcomeUnknownError,
  type RequestSummary,
} from "./errors";
import { MAX_PAGE_SIZE, PagePromise } from "./pagination";
import { buildUpdateMask, resourcePath } from "./path";
import { type ApiRequester, ApiResource, decodePage, listQuery, type QueryValue } from "./resource";
import { ShapeError } from "./shape";

export interface CollectionSpec<T extends Identified> {
  /** Path of the collection, e.g. `/iam/v2beta1/groups`. */
  path: string;
  /** Key of the array in the list envelope, e.g. `groups`. */
  listKey: string;
  /** Singular noun for messages. */
  noun: string;
  /** Reads one object, throwing `ShapeError` (naming the field under `at`) when it is malformed. */
  decode: (raw: unknown, at: string) => T;
  /**
   * The group an object belongs to, undefined at the root: by default the parent of its
   * path-shaped uid (`parentOf` of `sdk/uids.ts`; a custom role's too, `<group uid>/<16 hex>`).
   */
  parentOf?: (item: T) => string | undefined;
  /**
   * Reads the answer of a create, when it carries more than a Get (a group
   * invite's one-time `code`); `decode` otherwise.
   */
  decodeCreated?: (raw: unknown, at: string) => T;
}

/** What every object of a collection has: its uid. */
export interface Identified {
  uid: string;
}

/** A listed item that does not match a filter of the request: the field (below the item) and why. */
export interface FilterMismatch {
  field: string;
  problem: string;
}

/** The exact `name` filter, for collections whose answers the SDK checks against it. */
export function nameMismatch(
  item: { name: string },
  params: ListParams,
): FilterMismatch | undefined {
  if (!params.name || item.name === params.name) return undefined;
  return { field: "name", problem: `is not ${JSON.stringify(params.name)}, the name filtered on` };
}

/** List and Get. */
export class ReadableCollection<
  T extends Identified,
  P extends ListParams = ListParams,
> extends ApiResource {
  protected readonly spec: Required<Omit<CollectionSpec<T>, "decodeCreated">> & CollectionSpec<T>;

  constructor(client: ApiRequester, spec: CollectionSpec<T>) {
    super(client);
    this.spec = { parentOf: (item) => parentOf(item.uid), ...spec };
  }

  /**
   * Decodes one answer, or throws a `BadResponseError` naming the field; `check`
   * adds what the request implies (the uid asked for, the parent sent to).
   */
  protected decodeAnswer(
    body: unknown,
    request: RequestSummary,
    check?: (item: T) => string | undefined,
    decode: (raw: unknown, at: string) => T = this.spec.decode,
  ): T {
    try {
      const item = decode(body, this.spec.noun);
      const problem = check?.(item);
      if (problem !== undefined) throw new ShapeError(`${this.spec.noun}.uid`, problem);
      return item;
    } catch (error) {
      throw badShape(error, request);
    }
  }

  /** Await for one page; `for await` for every item across pages. */
  list(params?: P, options?: RequestOptions): PagePromise<T, P> {
    return new PagePromise<T, P>(
      async (pageParams) => {
        const body = await this.client.call({
          method: "GET",
          path: this.spec.path,
          query: this.listQueryOf(pageParams),
          options,
        });
        const request = { method: "GET", path: this.spec.path };
        try {
          const page = decodePage(body, this.spec.listKey, this.spec.decode);
          const most = largestPage(pageParams.pageSize);
          if (page.items.length > most) {
            throw new ShapeError(
              `list.${this.spec.listKey}`,
              `${page.items.length} items, more than the ${most} a page asked for can hold`,
            );
          }
          page.items.forEach((item, index) => {
            const problem = this.#outOfScope(item, pageParams);
            if (problem) throw new ShapeError(`${this.spec.listKey}[${index}].uid`, problem);
            const mismatch = this.filterMismatch(item, pageParams);
            if (mismatch) {
              throw new ShapeError(
                `${this.spec.listKey}[${index}].${mismatch.field}`,
                mismatch.problem,
              );
            }
          });
          return page;
        } catch (error) {
          throw badShape(error, request);
        }
      },
      params ?? ({} as P),
    );
  }

  /**
   * The query of one page: the common parameters, plus the collection's own
   * filters in subclasses (`key_id`, `relationship_type`, ...).
   */
  protected listQueryOf(params: P): Record<string, QueryValue> {
    return listQuery(params);
  }

  /**
   * Why a listed item does not match the collection's own filters, if it does not
   * (the scope filters are checked for every collection).
   */
  protected filterMismatch(_item: T, _params: P): FilterMismatch | undefined {
    return undefined;
  }

  /** Why an item of a scoped listing does not belong in it, if it does not. */
  #outOfScope(item: T, params: ListParams): string | undefined {
    const uid = item.uid;
    const parent = this.spec.parentOf(item);
    if (params.childrenOf !== undefined && parent !== params.childrenOf) {
      return `${uid} is not a child of ${params.childrenOf}, which the listing was scoped to`;
    }
    const under = params.descendantsOf;
    if (under !== undefined && parent !== under && !parent?.startsWith(`${under}/`)) {
      return `${uid} is not below ${under}, which the listing was scoped to`;
    }
    // Groups above `ancestorsOf` sit on its path; for other collections (roles of the
    // groups above) the item's parent does: either way the parent is on that path.
    const above = params.ancestorsOf;
    if (
      above !== undefined &&
      parent !== undefined &&
      above !== parent &&
      !above.startsWith(`${parent}/`)
    ) {
      return `${uid} is not above ${above}, which the listing was scoped to`;
    }
    if (params.inRoot === true && parent !== undefined) {
      return `${uid} is not at the root, which the listing was scoped to`;
    }
    if (params.ids !== undefined && params.ids.length > 0 && !params.ids.includes(uid)) {
      return `${uid} is not one of the ids the listing asked for`;
    }
    return undefined;
  }

  async get(uid: string, options?: RequestOptions): Promise<T> {
    const path = resourcePath(this.spec.path, uid);
    const body = await this.client.call({ method: "GET", path, options });
    return this.decodeAnswer(body, { method: "GET", path }, (item) => sameUid(item, uid));
  }

  /**
   * True when `error` is the API's own NOT_FOUND (an AIP-193 body with code 5)
   * answering a Get or Delete of exactly this uid: only then is the object gone.
   * A 404 page from a proxy, or a NOT_FOUND from anything else (the token
   * exchange, another object), is not.
   */
  isGone(error: unknown, uid: string): boolean {
    if (!(error instanceof NotFoundError) || error.request === undefined) return false;
    const { method, path } = error.request;
    // The request's path also carries the base URL's own path, if it has one.
    return (
      (method === "GET" || method === "DELETE") && path.endsWith(resourcePath(this.spec.path, uid))
    );
  }
}

/** The service's page size when none is asked for (absent or 0). */
const DEFAULT_PAGE_SIZE = 50;

/** The most items a page asked with `pageSize` can hold: the size asked, at most `MAX_PAGE_SIZE`. */
function largestPage(pageSize: number | undefined): number {
  return pageSize !== undefined && pageSize > 0
    ? Math.min(pageSize, MAX_PAGE_SIZE)
    : DEFAULT_PAGE_SIZE;
}

function sameUid<T extends Identified>(item: T, uid: string): string | undefined {
  const answered = item.uid;
  return answered === uid ? undefined : `${answered} is not the uid asked for (${uid})`;
}

/** A malformed answer as the error callers handle; anything else passes through. */
export function badShape(error: unknown, request: RequestSummary): unknown {
  if (!(error instanceof ShapeError)) return error;
  return new BadResponseError({
    code: GrpcCode.UNKNOWN,
    status: 200,
    request,
    message: `Bad response from ${request.method} ${request.path}: HTTP 200, ${error.message}`,
  });
}

/**
 * A malformed answer to a request that may have made something (a create, a batch, a
 * reveal-once token) as an `OutcomeUnknownError` saying what to check first; anything
 * else passes through.
 */
export function unknownOutcome(error: unknown, request: RequestSummary, advice: string): unknown {
  const bad = badShape(error, request) as IrmError;
  if (bad === error) return error;
  return new OutcomeUnknownError({
    code: GrpcCode.UNKNOWN,
    status: bad.status,
    request: bad.request,
    cause: bad,
    message: `${bad.message}; ${advice}`,
  });
}

/**
 * List, Get, Create under a parent group, Delete: collections whose objects never
 * change (group invites) stop here.
 */
export class CreatableCollection<
  T extends Identified,
  Create extends object,
  P extends ListParams = ListParams,
> extends ReadableCollection<T, P> {
  /**
   * Creates the resource under `parentUid` (the parent is in the path only). An
   * answer that is not the object just created, directly under `parentUid`, is an
   * `OutcomeUnknownError`: the create may have happened.
   */
  async create(parentUid: string, fields: Create, options?: RequestOptions): Promise<T> {
    const path = resourcePath(this.spec.path, parentUid, "parentUid");
    return this.createAt(path, fields, options, (item) => this.notCreatedUnder(item, parentUid));
  }

  /** One create POSTed to `path`; `check` judges the object answered. */
  protected async createAt(
    path: string,
    fields: Create,
    options: RequestOptions | undefined,
    check: (item: T) => string | undefined,
  ): Promise<T> {
    const body = await this.client.call({
      method: "POST",
      path,
      body: this.createBody(fields),
      options,
    });
    try {
      return this.decodeAnswer(body, { method: "POST", path }, check, this.spec.decodeCreated);
    } catch (error) {
      const bad = error as IrmError;
      throw new OutcomeUnknownError({
        code: GrpcCode.UNKNOWN,
        status: bad.status,
        request: bad.request,
        cause: bad,
        message: `${bad.message}; the create may or may not have taken effect. Not retried: look the resource up before trying again.`,
      });
    }
  }

  /**
   * The body sent by `create`: the fields as given, or their wire form in
   * subclasses (a duration in seconds as `"<n>s"`). Throws before any request
   * when a field cannot be encoded.
   */
  protected createBody(fields: Create): unknown {
    return fields;
  }

  /**
   * Why a create's answer is not the object made under `parentUid`, if it is not:
   * by default it must sit directly under it (an account association, addressed by
   * its group's uid, must be that uid instead).
   */
  protected notCreatedUnder(item: T, parentUid: string): string | undefined {
    const parent = this.spec.parentOf(item);
    return parent === parentUid
      ? undefined
      : `${item.uid} is not directly under ${parentUid}, where it was created`;
  }

  /** Deletes the resource. A repeated delete fails with `NotFoundError` (not for account associations and role bindings). */
  async delete(uid: string, options?: RequestOptions): Promise<void> {
    await this.client.call({ method: "DELETE", path: resourcePath(this.spec.path, uid), options });
  }
}

/** List, Get, Create under a parent group, Update with a field mask, Delete. */
export class WritableCollection<
  T extends Identified,
  Create extends object,
  Update extends object,
  MaskPath extends string,
  P extends ListParams = ListParams,
> extends CreatableCollection<T, Create, P> {
  /**
   * Changes the fields present in `fields`, or with `updateMask` only the named
   * paths (other fields in the body are then ignored). Answers the full resource.
   */
  async update(
    uid: string,
    fields: Update,
    update: UpdateOptions<MaskPath> = {},
    options?: RequestOptions,
  ): Promise<T> {
    const path = resourcePath(this.spec.path, uid);
    const body = await this.client.call({
      method: "PATCH",
      path,
      query: { updateMask: update.updateMask && buildUpdateMask(update.updateMask) },
      body: this.updateBody(fields),
      options,
    });
    return this.decodeAnswer(body, { method: "PATCH", path }, (item) => sameUid(item, uid));
  }

  /** The body sent by `update`: the fields as given, or their wire form in subclasses. */
  protected updateBody(fields: Update): unknown {
    return fields;
  }
}
