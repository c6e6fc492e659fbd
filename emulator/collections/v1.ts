/** The v1 paths still served: `GET /iam/v1/groups` and `GET /registry/v1/repos`, lists only. */
import { capabilityFor } from "../model";
import type { JsonObject } from "../requests";
import { ok } from "../requests";
import { type CollectionHandler, callerOf, unsupported } from "./kit";
import { repoReadable } from "./repos";

export const v1Groups: CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw unsupported(request);
  const access = await callerOf(ctx, request, true);
  const items: JsonObject[] = [];
  const range = ctx.state.groups.all();
  for (let index = range.start; index < range.end; index++) {
    const group = ctx.state.groups.get(range.uids[index]);
    if (!group || !access.can(capabilityFor("groups", "list"), group.uid)) continue;
    items.push({
      id: group.uid,
      name: group.name,
      description: group.description,
      resourceLimits: {
        clusters: group.resourceLimits.clusters ?? 0,
        idps: group.resourceLimits.idps ?? 0,
        repositories: group.resourceLimits.repositories ?? 0,
      },
      verified: group.verified,
    });
  }
  return ok({ items });
};

export const v1Repos: CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw unsupported(request);
  const access = await callerOf(ctx, request, false);
  const items: JsonObject[] = [];
  const range = ctx.state.repos.all();
  for (let index = range.start; index < range.end; index++) {
    const repo = ctx.state.repos.get(range.uids[index]);
    if (!repo || !repoReadable(access, repo, "list")) continue;
    items.push({
      id: repo.uid,
      name: repo.name,
      description: repo.description,
      catalogTier: repo.catalogTier,
      aliases: [...repo.aliases],
      createdAt: repo.createTime,
      updatedAt: repo.updateTime,
    });
  }
  return ok({ items });
};
