/** The v1 listings the authentication flows use (`/iam/v1/groups`, `/registry/v1/repos`). */
import { badResponseError } from "../core/errors";
import { type ApiRequester, ApiResource, asObject } from "../core/resource";
import type { RequestOptions, V1Group, V1List, V1Repo } from "../types";

/** A v1 listing: one unpaginated `{ items: [...] }` answer. */
class V1Listing<T> extends ApiResource {
  readonly #path: string;

  constructor(client: ApiRequester, path: string) {
    super(client);
    this.#path = path;
  }

  async list(options?: RequestOptions): Promise<V1List<T>> {
    const body = await this.client.call({ method: "GET", path: this.#path, options });
    const items = asObject(body, "v1 list").items ?? [];
    if (!Array.isArray(items)) {
      throw badResponseError("unexpected shape", '"items" is not an array', "application/json", {
        status: 200,
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
