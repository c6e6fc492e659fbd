/** Registry repos: `/registry/v2beta1/repos`, read only; public repos need no token. */
import type { Access } from "../access";
import { parseListParams, runList } from "../listing";
import type { RepoRecord } from "../model";
import { type JsonObject, ok } from "../requests";
import { getReadable, listEnvelope, readOnlyCollection, sortValueOf } from "./kit";

export function repoOut(repo: RepoRecord): JsonObject {
  return {
    uid: repo.uid,
    name: repo.name,
    description: repo.description,
    catalogTier: repo.catalogTier,
    aliases: [...repo.aliases],
    createTime: repo.createTime,
    updateTime: repo.updateTime,
  };
}

export function repoReadable(access: Access, repo: RepoRecord, verb: "list" | "get"): boolean {
  return repo.public || access.can(`repos.${verb}`, repo.uid);
}

export const repos = readOnlyCollection(
  (ctx, request, access) => {
    const params = parseListParams(request.query);
    const filter = access.listFilter("repos.list", params.childrenOf ?? params.descendantsOf);
    const result = runList<RepoRecord>({
      collectionKey: "repos",
      collection: ctx.state.repos,
      params,
      sortValue: sortValueOf<RepoRecord>((repo) => repo.name),
      predicate: filter && ((repo) => repo.public || filter(repo.uid)),
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    return listEnvelope("repos", result, repoOut);
  },
  (ctx, access, uid) =>
    ok(
      repoOut(
        getReadable(access, ctx.state.repos, uid, "repos.get", (repo) =>
          repoReadable(access, repo, "get"),
        ),
      ),
    ),
);
