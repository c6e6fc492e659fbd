/** The v1 listings the authentication flows use (`/iam/v1/groups`, `/registry/v1/repos`). */

import type { RequestOptions } from "../core/common-types";
import { BadResponseError, GrpcCode } from "../core/errors";
import { type ApiRequester, ApiResource } from "../core/resource";
import { isRecord } from "../core/shape";

/** A group as the v1 listing returns it (`id` instead of `uid`, no timestamps). */
export interface V1Group {
  id: string;
  name: string;
  description: string;
  resourceLimits: { clusters?: number; idps?: number; repositories?: number };
  verified: boolean;
}

/** A repo as the v1 listing returns it; its shape is not specified, fields pass through. */
export interface V1Repo {
  id?: string;
  name?: string;
  [field: string]: unknown;
}

/** The v1 list envelope. */
export interface V1List<T> {
  items: T[];
}

/** A v1 listing: one unpaginated `{ items: [...] }` answer. */
class V1Listing<T> extends ApiResource {
  readonly #path: string;

  constructor(client: ApiRequester, path: string) {
    super(client);
    this.#path = path;
  }

  async list(options?: RequestOptions): Promise<V1List<T>> {
    const body = await this.client.call({ method: "GET", path: this.#path, options });
    const items = isRecord(body) ? (body.items ?? []) : undefined;
    const bad = !Array.isArray(items) ? "items" : items.findIndex((item) => !isRecord(item));
    if (bad !== -1) {
      const field = bad === "items" ? "list.items" : `list.items[${bad}]`;
      throw new BadResponseError({
        code: GrpcCode.UNKNOWN,
        status: 200,
        request: { method: "GET", path: this.#path },
        message: `Bad response from GET ${this.#path}: HTTP 200, ${field}: expected ${bad === "items" ? "an array" : "an object"}`,
      });
    }
    return { items: items as T[] };
  }
}

/** `GET /iam/v1/groups`: groups visible to the caller, v1 shape (`id`, no timestamps). */
export class V1Groups extends V1Listing<V1Group> {
  constructor(client: ApiRequester) {
    super(client, "/iam/v1/groups");
  }
}

/** `GET /registry/v1/repos`: repo listing, v1 shape (fields pass through). */
export class V1Repos extends V1Listing<V1Repo> {
  constructor(client: ApiRequester) {
    super(client, "/registry/v1/repos");
  }
}
