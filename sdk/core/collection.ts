/**
 * The verbs every collection shares. Resource classes fix the path, the list key
 * and the types; read-only collections (registry, advisories) offer list and get.
 */
import type { ListParams, RequestOptions, UpdateOptions } from "../types";
import { PagePromise } from "./pagination";
import { buildUpdateMask, resourcePath } from "./path";
import { type ApiRequester, ApiResource, asObject, decodePage, listQuery } from "./resource";

export interface CollectionSpec<T> {
  /** Path of the collection, e.g. `/iam/v2beta1/groups`. */
  path: string;
  /** Key of the array in the list envelope, e.g. `groups`. */
  listKey: string;
  /** Singular noun for messages. */
  noun: string;
  decode: (raw: Record<string, unknown>) => T;
}

/** List and Get. */
export class ReadableCollection<T, P extends ListParams = ListParams> extends ApiResource {
  protected readonly spec: CollectionSpec<T>;

  constructor(client: ApiRequester, spec: CollectionSpec<T>) {
    super(client);
    this.spec = spec;
  }

  /** Await for one page; `for await` for every item across pages. */
  list(params?: P, options?: RequestOptions): PagePromise<T, P> {
    return new PagePromise<T, P>(
      async (pageParams) => {
        const body = await this.client.call({
          method: "GET",
          path: this.spec.path,
          query: listQuery(pageParams),
          options,
        });
        return decodePage(body, this.spec.listKey, this.spec.decode);
      },
      params ?? ({} as P),
    );
  }

  async get(uid: string, options?: RequestOptions): Promise<T> {
    const body = await this.client.call({
      method: "GET",
      path: resourcePath(this.spec.path, uid),
      options,
    });
    return this.spec.decode(asObject(body, this.spec.noun));
  }
}

/** List, Get, Create under a parent group, Update with a field mask, Delete. */
export class WritableCollection<
  T,
  Create extends object,
  Update extends object,
  MaskPath extends string,
> extends ReadableCollection<T> {
  /** Creates the resource under `parentUid` (the parent is in the path only). */
  async create(parentUid: string, fields: Create, options?: RequestOptions): Promise<T> {
    const body = await this.client.call({
      method: "POST",
      path: resourcePath(this.spec.path, parentUid, "parentUid"),
      body: fields,
      options,
    });
    return this.spec.decode(asObject(body, this.spec.noun));
  }

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
    const body = await this.client.call({
      method: "PATCH",
      path: resourcePath(this.spec.path, uid),
      query: { updateMask: update.updateMask && buildUpdateMask(update.updateMask) },
      body: fields,
      options,
    });
    return this.spec.decode(asObject(body, this.spec.noun));
  }

  /** Deletes the resource. A repeated delete fails with `NotFoundError`. */
  async delete(uid: string, options?: RequestOptions): Promise<void> {
    await this.client.call({ method: "DELETE", path: resourcePath(this.spec.path, uid), options });
  }
}
