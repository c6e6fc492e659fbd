/** Read-only registry and vulnerability collections. */
import { ReadableCollection } from "../core/collection";
import type { ApiRequester } from "../core/resource";
import type { Advisory, AdvisoryListParams, Repo, Tag } from "../types";

function passThrough<T>(raw: Record<string, unknown>): T {
  return raw as unknown as T;
}

/** `/registry/v2beta1/repos`: repositories; public ones are readable without a token. */
export class Repos extends ReadableCollection<Repo> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/registry/v2beta1/repos",
      listKey: "repos",
      noun: "repo",
      decode: passThrough<Repo>,
    });
  }
}

/** `/registry/v2beta1/tags`: tags of a repo (list with `childrenOf: <repo uid>`). */
export class Tags extends ReadableCollection<Tag> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/registry/v2beta1/tags",
      listKey: "tags",
      noun: "tag",
      decode: passThrough<Tag>,
    });
  }
}

/** `/vulnerabilities/v2beta1/advisories`: `name` filters on `advisoryId`; `packageName` filters too. */
export class Advisories extends ReadableCollection<Advisory, AdvisoryListParams> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/vulnerabilities/v2beta1/advisories",
      listKey: "advisories",
      noun: "advisory",
      decode: passThrough<Advisory>,
    });
  }
}
