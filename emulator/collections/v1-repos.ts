/**
 * `/registry/v1/repos`, the v1 registry's repository calls the platform's tools make,
 * answered from the v2beta1 records: ListRepos (`id`, `name`, `uidp.*`; public repos
 * without a token; each item with its README), CreateRepo (`POST .../<parent_id>`, the
 * v1 `Repo` as body; a name already in the group updates that repo unless
 * `prevent_existing`), UpdateRepo (`PUT .../<id>`, the whole `Repo`) and DeleteRepo.
 * The v1 `Repo` is `{ id, name, description, catalogTier, aliases, readme, createTime }`,
 * its `CatalogTier` the v1 enum (`APPLICATION`, `BASE`, ...; `UNKNOWN` for none).
 */
import { alreadyExists, invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { RepoRecord } from "../model";
import { bodyObject, type JsonObject, ok, optionalString } from "../requests";
import * as kit from "./kit";
import { removeRepo, repoFields, repoReadable, requireUniqueName } from "./repos";

/** v1 `CatalogTier` value names, by the v2beta1 name of the same tier. */
const V1_TIERS: Readonly<Record<string, string>> = {
  CATALOG_TIER_UNSPECIFIED: "UNKNOWN",
  CATALOG_TIER_APPLICATION: "APPLICATION",
  CATALOG_TIER_BASE: "BASE",
  CATALOG_TIER_FIPS: "FIPS",
  CATALOG_TIER_AI: "AI",
  CATALOG_TIER_DEVTOOLS: "DEVTOOLS",
  CATALOG_TIER_COMMERCIAL: "COMMERCIAL",
};

function v2TierOf(body: JsonObject): string {
  const tier = optionalString(body, "catalogTier") ?? "UNKNOWN";
  const found = Object.entries(V1_TIERS).find(([, v1]) => v1 === tier);
  if (!found) {
    throw invalidArgument("catalogTier", `must be one of ${Object.values(V1_TIERS).join(", ")}`);
  }
  return found[0];
}

export function v1RepoOut(repo: RepoRecord): JsonObject {
  return {
    id: repo.uid,
    name: repo.name,
    description: repo.description,
    catalogTier: V1_TIERS[repo.catalogTier] ?? "UNKNOWN",
    aliases: [...repo.aliases],
    readme: repo.readme ?? "",
    createTime: repo.createTime,
  };
}

/** The writable fields of a v1 `Repo` body, checked; absent ones at their zero value. */
function v1Fields(body: JsonObject) {
  return { ...repoFields(body, v2TierOf), readme: optionalString(body, "readme") ?? "" };
}

/** Stores `next` over `current` when a field differs (updateTime moves with the repo's own fields). */
function replaceRepo(ctx: kit.EmulatorContext, current: RepoRecord, next: RepoRecord): RepoRecord {
  const own = ["name", "description", "catalogTier", "aliases"] as const;
  const ownChanged = own.some((f) => JSON.stringify(current[f]) !== JSON.stringify(next[f]));
  if (!ownChanged && (current.readme ?? "") === next.readme) return current;
  const stored = ownChanged ? { ...next, updateTime: ctx.clock.isoNow() } : next;
  ctx.state.repos.replace(stored);
  ctx.state.touch();
  return stored;
}

export const v1Repos: kit.CollectionHandler = async (ctx, request, rest) => {
  switch (request.method) {
    case "GET": {
      if (rest !== undefined) throw kit.unsupported(request);
      const access = await kit.callerOf(ctx, request, false);
      const matches = kit.v1RegistryFilter(request.query);
      const items: JsonObject[] = [];
      const range = ctx.state.repos.all();
      for (let index = range.start; index < range.end; index++) {
        const repo = ctx.state.repos.get(range.uids[index]);
        if (!repo || !repoReadable(access, repo, "list") || !matches(repo)) continue;
        items.push(v1RepoOut(repo));
      }
      return ok({ items });
    }
    case "POST": {
      const access = await kit.callerOf(ctx, request, true);
      if (rest === undefined)
        throw invalidArgument("parent_id", "the parent group uid belongs in the path");
      const parentUid = kit.requirePathUid(rest, "parent_id");
      access.require(capabilityFor("repos", "create"), parentUid);
      const fields = v1Fields(bodyObject(request));
      const prevent = request.query.get("prevent_existing") ?? request.query.get("preventExisting");
      kit.existing(ctx.state.groups, parentUid);
      const namesake = ctx.state.repos
        .named(fields.name)
        .map((uid) => ctx.state.repos.get(uid))
        .find((repo) => repo !== undefined && kit.parentOf(repo.uid) === parentUid);
      if (namesake) {
        if (prevent === "true")
          throw alreadyExists(`a repo named "${fields.name}" in ${parentUid}`);
        // "Disallow updating an existing repo on create name collision": without it, update.
        access.require(capabilityFor("repos", "update"), namesake.uid);
        return ok(v1RepoOut(replaceRepo(ctx, namesake, { ...namesake, ...fields })));
      }
      const now = ctx.clock.isoNow();
      const repo: RepoRecord = {
        uid: kit.newChildUid(parentUid, (candidate) => ctx.state.repos.has(candidate)),
        ...fields,
        public: false,
        createTime: now,
        updateTime: now,
      };
      ctx.state.repos.insert(repo);
      ctx.state.touch();
      return ok(v1RepoOut(repo));
    }
    case "PUT": {
      const uid = await kit.v1WriteTarget(ctx, request, rest, capabilityFor("repos", "update"));
      const body = bodyObject(request);
      const fields = v1Fields(body);
      const current = kit.existing(ctx.state.repos, uid);
      if (fields.name !== current.name) {
        requireUniqueName(ctx.state, kit.parentOf(uid) ?? "", fields.name, uid);
      }
      return ok(v1RepoOut(replaceRepo(ctx, current, { ...current, ...fields })));
    }
    case "DELETE": {
      const uid = await kit.v1WriteTarget(ctx, request, rest, capabilityFor("repos", "delete"));
      kit.existing(ctx.state.repos, uid);
      removeRepo(ctx, uid);
      ctx.state.touch();
      return ok({});
    }
    default:
      throw kit.unsupported(request);
  }
};
