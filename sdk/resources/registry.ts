/** Read-only registry and vulnerability collections. */
import { ReadableCollection } from "../core/collection";
import { type ApiRequester, listQuery, type QueryValue } from "../core/resource";
import { ShapeReader } from "../core/shape";
import type { Advisory, AdvisoryListParams, Repo, Tag } from "../types";

/**
 * Registry objects carry fields the specification does not show: those pass
 * through, but the ones the SDK's types promise are checked.
 */
function decodeNamed<T>(key: "name" | "advisoryId") {
  return (raw: unknown, at: string): T => {
    const r = ShapeReader.of(raw, at);
    r.string("uid");
    r.string(key);
    r.optionalTimestamp("createTime");
    r.optionalTimestamp("updateTime");
    return { ...r.raw } as T;
  };
}

/** `/registry/v2beta1/repos`: repositories; public ones are readable without a token. */
export class Repos extends ReadableCollection<Repo> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/registry/v2beta1/repos",
      listKey: "repos",
      noun: "repo",
      decode: decodeNamed<Repo>("name"),
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
      decode: decodeNamed<Tag>("name"),
    });
  }
}

/** `/vulnerabilities/v2beta1/advisories`: `name` filters on `advisoryId`; `packageName` and `severity` filter too. */
export class Advisories extends ReadableCollection<Advisory, AdvisoryListParams> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/vulnerabilities/v2beta1/advisories",
      listKey: "advisories",
      noun: "advisory",
      decode: decodeNamed<Advisory>("advisoryId"),
    });
  }

  protected override listQueryOf(params: AdvisoryListParams): Record<string, QueryValue> {
    return { ...listQuery(params), severity: params.severity };
  }

  protected override filterMismatch(item: Advisory, params: AdvisoryListParams) {
    if (!params.severity || item.severity === params.severity) return undefined;
    return { field: "severity", problem: `is not ${params.severity}, the severity filtered on` };
  }
}
