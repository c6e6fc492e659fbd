/** Registry repos: `/registry/v2beta1/repos`, read only; public repos need no token. */
import type { Access } from "../access";
import { capabilityFor } from "../kinds";
import type { RepoRecord } from "../model";
import type { JsonObject } from "../requests";
import { registryCollection } from "./kit";

/** The values of the platform's `CatalogTier` enum. */
export const CATALOG_TIERS = [
  "CATALOG_TIER_UNSPECIFIED",
  "CATALOG_TIER_APPLICATION",
  "CATALOG_TIER_BASE",
] as const;

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
  return repo.public || access.can(capabilityFor("repos", verb), repo.uid);
}

export const repos = registryCollection<RepoRecord>({
  key: "repos",
  records: (state) => state.repos,
  out: repoOut,
  isPublic: (_state, repo) => repo.public,
});
