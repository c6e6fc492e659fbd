/**
 * Registry repos: `/registry/v2beta1/repos`. Reads (List, Get, GetRepoReadme) admit
 * anonymous callers on public repos; the writes (CreateRepo, UpdateRepo, DeleteRepo,
 * UpdateRepoReadme) need a token and the capability HEAD annotates on the repo or its
 * group. A repo's README is its singleton sub-resource `<uid>/readme`.
 */
import { CATALOG_TIERS } from "../../sdk/resources/registry";
import type { Access } from "../access";
import { alreadyExists, invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { RepoRecord } from "../model";
import {
  type ApiRequest,
  bodyObject,
  type JsonObject,
  ok,
  optionalString,
  optionalStringArray,
  updatePaths,
} from "../requests";
import type { State } from "../state";
import * as kit from "./kit";
import { writableCollection } from "./writable";

/** The values of the platform's `CatalogTier` enum at HEAD (the SDK lists them). */
export { CATALOG_TIERS };

/** The repo fields an UpdateRepo mask may name (JSON spelling). */
export const REPO_WRITABLE = ["name", "description", "catalogTier", "aliases"] as const;

/**
 * Repo fields HEAD defines that the emulator does not keep: a repo that syncs from
 * another, and custom assembly overlays. Refused by name rather than dropped unseen.
 */
// HEAD gives `sync_config` the JSON name `sync_config`.
const REPO_NOT_OFFERED = ["sync_config", "customOverlay"] as const;

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

function catalogTierOf(body: JsonObject): string {
  const tier = optionalString(body, "catalogTier") ?? "CATALOG_TIER_UNSPECIFIED";
  if (!(CATALOG_TIERS as readonly string[]).includes(tier)) {
    throw invalidArgument("catalogTier", `must be one of ${CATALOG_TIERS.join(", ")}`);
  }
  return tier;
}

function aliasesOf(body: JsonObject): string[] {
  const aliases = optionalStringArray(body, "aliases") ?? [];
  aliases.forEach((alias, index) => {
    kit.requireName(alias, `aliases[${index}]`);
  });
  return aliases;
}

function refuseNotOffered(body: JsonObject): void {
  for (const field of REPO_NOT_OFFERED) {
    if (body[field] !== undefined && body[field] !== null) {
      throw invalidArgument(
        field,
        "is not offered here: repos that sync from another repo or carry a custom overlay are not kept",
      );
    }
  }
}

/**
 * The fields of a repo body, checked in this order, absent ones at their zero value;
 * `tierOf` reads the catalog tier in the body's enum (v2beta1's, or v1's).
 */
export function repoFields(body: JsonObject, tierOf: (body: JsonObject) => string) {
  refuseNotOffered(body);
  return {
    name: kit.requireName(body.name),
    description: optionalString(body, "description") ?? "",
    catalogTier: tierOf(body),
    aliases: aliasesOf(body),
  };
}

/** ALREADY_EXISTS when another repo of `parentUid` is called `name`. */
export function requireUniqueName(
  state: State,
  parentUid: string,
  name: string,
  self?: string,
): void {
  for (const uid of state.repos.named(name)) {
    if (uid !== self && kit.parentOf(uid) === parentUid) {
      throw alreadyExists(`a repo named "${name}" in ${parentUid}`);
    }
  }
}

interface RepoDraft {
  name: string;
  description: string;
  catalogTier: string;
  aliases: string[];
}

/**
 * Deletes a repo with its tags and its overlay bindings, as its images go with it:
 * nothing is left without its repo.
 */
export function removeRepo(ctx: kit.EmulatorContext, uid: string): void {
  const tags = [...ctx.state.tags.values()].filter((tag) => kit.parentOf(tag.uid) === uid);
  for (const tag of tags) ctx.state.tags.delete(tag.uid);
  const bindings = ctx.state.overlayBindings;
  const { uids, start, end } = bindings.childrenOf(uid);
  for (const binding of uids.slice(start, end)) bindings.delete(binding);
  ctx.state.repos.delete(uid);
}

const readRepos = kit.registryCollection<RepoRecord>({
  key: "repos",
  records: (state) => state.repos,
  out: repoOut,
  isPublic: (_state, repo) => repo.public,
});

const writeRepos = writableCollection<RepoRecord, RepoDraft>({
  name: "repos",
  out: (_ctx, repo) => repoOut(repo),
  list: { sortName: (_ctx, repo) => repo.name },
  create: {
    parentHint: "the parent group uid belongs in the path",
    body: (_ctx, body) => repoFields(body, catalogTierOf),
    unique: ({ ctx, parentUid, draft }) => requireUniqueName(ctx.state, parentUid, draft.name),
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) => ctx.state.repos.has(candidate)),
      ...draft,
      public: false,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    writable: REPO_WRITABLE,
    fields: ["name", "description", "catalogTier", "aliases"],
    apply: (_ctx, current, body, paths) => {
      refuseNotOffered(body);
      const next: RepoRecord = { ...current };
      for (const path of paths) {
        if (path === "name") next.name = kit.requireName(body.name);
        if (path === "description") next.description = optionalString(body, "description") ?? "";
        if (path === "catalogTier") next.catalogTier = catalogTierOf(body);
        if (path === "aliases") next.aliases = aliasesOf(body);
      }
      return next;
    },
    unique: ({ ctx, current, next }) => {
      if (next.name !== current.name) {
        requireUniqueName(ctx.state, kit.parentOf(current.uid) ?? "", next.name, current.uid);
      }
    },
  },
  delete: { remove: (ctx, repo) => removeRepo(ctx, repo.uid) },
});

/** `RepoReadme`: the repo's uid and its Markdown. */
export function readmeOut(repo: RepoRecord): JsonObject {
  return { uid: repo.uid, content: repo.readme ?? "" };
}

/**
 * `GET <uid>/readme` (GetRepoReadme: readable as the repo is) and `PATCH <uid>/readme`
 * (UpdateRepoReadme: `CAP_REPO_UPDATE` or `CAP_REPO_INTERNAL_ADMIN` on the repo; the
 * one writable field is `content`).
 */
async function readme(ctx: kit.EmulatorContext, request: ApiRequest, uid: string) {
  if (request.method === "GET") {
    const access = await kit.callerOf(ctx, request, false);
    const repo = kit.getReadable(access, ctx.state.repos, uid, capabilityFor("repos", "get"), (r) =>
      repoReadable(access, r, "get"),
    );
    return ok(readmeOut(repo));
  }
  if (request.method !== "PATCH") throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  kit.requirePathUid(uid);
  if (!access.can("CAP_REPO_INTERNAL_ADMIN", uid)) {
    access.require(capabilityFor("repos", "update"), uid);
  }
  const body = bodyObject(request);
  const { paths } = updatePaths(request, body, ["content"]);
  const current = kit.existing(ctx.state.repos, uid);
  if (!paths.includes("content")) return ok(readmeOut(current));
  const content = optionalString(body, "content") ?? "";
  if (content === (current.readme ?? "")) return ok(readmeOut(current));
  // The README is a sub-resource of its own: the repo's updateTime stays.
  const stored: RepoRecord = { ...current, readme: content };
  ctx.state.repos.replace(stored);
  ctx.state.touch();
  return ok(readmeOut(stored));
}

const README_SUFFIX = "/readme";

export const repos: kit.CollectionHandler = (ctx, request, rest) => {
  if (rest?.endsWith(README_SUFFIX)) {
    return readme(ctx, request, rest.slice(0, -README_SUFFIX.length));
  }
  if (request.method === "GET") return readRepos(ctx, request, rest);
  return writeRepos(ctx, request, rest);
};
