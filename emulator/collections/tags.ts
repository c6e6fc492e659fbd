/** Registry tags: `/registry/v2beta1/tags`, read only; tags of public repos need no token. */
import type { Access } from "../access";
import { parseListParams, runList } from "../listing";
import type { TagRecord } from "../model";
import { type JsonObject, ok } from "../requests";
import type { State } from "../state";
import { getReadable, listEnvelope, parentPath, readOnlyCollection, sortValueOf } from "./kit";

export function tagOut(tag: TagRecord): JsonObject {
  return {
    uid: tag.uid,
    name: tag.name,
    digest: tag.digest,
    deprecated: tag.deprecated,
    createTime: tag.createTime,
    updateTime: tag.updateTime,
  };
}

function tagReadable(state: State, access: Access, tag: TagRecord, verb: "list" | "get"): boolean {
  const repo = state.repos.get(parentPath(tag.uid));
  return (repo?.public ?? false) || access.can(`tags.${verb}`, tag.uid);
}

export const tags = readOnlyCollection(
  (ctx, request, access) => {
    const params = parseListParams(request.query);
    const filter = access.listFilter("tags.list", params.childrenOf ?? params.descendantsOf);
    const result = runList<TagRecord>({
      collectionKey: "tags",
      collection: ctx.state.tags,
      params,
      sortValue: sortValueOf<TagRecord>((tag) => tag.name),
      predicate: filter && ((tag) => tagReadable(ctx.state, access, tag, "list")),
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    return listEnvelope("tags", result, tagOut);
  },
  (ctx, access, uid) =>
    ok(
      tagOut(
        getReadable(access, ctx.state.tags, uid, "tags.get", (tag) =>
          tagReadable(ctx.state, access, tag, "get"),
        ),
      ),
    ),
);
