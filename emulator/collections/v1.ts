/**
 * The v1 paths still served, the calls the platform's own tools still make:
 * `GET /iam/v1/groups` and `GET /iam/v1/identities` (lists, with their `id`, `name` and
 * `uidp.*` filters), `GET /iam/v1/identities/lookup` (`issuer`, `subject`), and
 * `GET /registry/v1/repos`.
 */

import { notFound } from "../errors";
import { relationshipOut } from "../identity-kinds";
import type { UidRange } from "../indexed-collection";
import { capabilityFor, type IdentityRecord } from "../model";
import type { ApiRequest, JsonObject } from "../requests";
import { ok } from "../requests";
import {
  type CollectionHandler,
  callerOf,
  type EmulatorContext,
  requirePathUid,
  unsupported,
} from "./kit";
import { repoReadable } from "./repos";

/**
 * The uids a v1 filter names: `id` (one uid), else `uidp.children_of` /
 * `uidp.descendants_of` / `uidp.ids`, else all. Each value must be a uid.
 */
function v1Scope(
  request: ApiRequest,
  index: {
    all(): UidRange;
    childrenOf(uid: string): UidRange;
    descendantsOf(uid: string): UidRange;
  },
): string[] {
  const slice = (range: UidRange) => range.uids.slice(range.start, range.end);
  const id = request.query.get("id");
  if (id) return [requirePathUid(id, "id")];
  const children = request.query.get("uidp.children_of") ?? request.query.get("uidp.childrenOf");
  if (children) return slice(index.childrenOf(requirePathUid(children, "uidp.children_of")));
  const below = request.query.get("uidp.descendants_of") ?? request.query.get("uidp.descendantsOf");
  if (below) return slice(index.descendantsOf(requirePathUid(below, "uidp.descendants_of")));
  const ids = request.query.getAll("uidp.ids");
  if (ids.length > 0) return ids.map((uid) => requirePathUid(uid, "uidp.ids"));
  return slice(index.all());
}

export const v1Groups: CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw unsupported(request);
  const access = await callerOf(ctx, request, true);
  const items: JsonObject[] = [];
  const name = request.query.get("name");
  for (const groupUid of v1Scope(request, ctx.state.groups)) {
    const group = ctx.state.groups.get(groupUid);
    if (!group || !access.can(capabilityFor("groups", "list"), group.uid)) continue;
    if (name && group.name !== name) continue;
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

/** An identity in the v1 shape (`id`, `created_at`, `static` for static keys). */
function v1Identity(identity: IdentityRecord): JsonObject {
  const relationship = relationshipOut(identity);
  const out: JsonObject = {
    id: identity.uid,
    name: identity.name,
    description: identity.description,
    createdAt: identity.createTime,
    updatedAt: identity.updateTime,
    ...(identity.lastSeenTime ? { lastSeen: identity.lastSeenTime } : {}),
  };
  if (relationship.staticKeys) {
    const keys = relationship.staticKeys as JsonObject;
    const { expirationTime, ...rest } = keys;
    out.static = { ...rest, ...(expirationTime ? { expiration: expirationTime } : {}) };
  } else {
    Object.assign(out, relationship);
  }
  return out;
}

function readableIdentity(
  ctx: EmulatorContext,
  access: Awaited<ReturnType<typeof callerOf>>,
  uid: string,
): IdentityRecord | undefined {
  const identity = ctx.state.identities.get(uid);
  if (!identity) return undefined;
  if (
    identity.uid !== access.identityUid &&
    !access.can(capabilityFor("identities", "list"), uid)
  ) {
    return undefined;
  }
  return identity;
}

export const v1Identities: CollectionHandler = async (ctx, request, rest) => {
  if (request.method !== "GET") throw unsupported(request);
  const access = await callerOf(ctx, request, true);
  if (rest === "lookup") {
    // The identity whose claims are exactly this issuer and subject, among those the
    // caller may read (its own included): never an oracle for others' identities.
    const issuer = request.query.get("issuer") ?? "";
    const subject = request.query.get("subject") ?? "";
    const range = ctx.state.identities.all();
    for (let index = range.start; index < range.end; index++) {
      const identity = readableIdentity(ctx, access, range.uids[index]);
      const match = identity?.claimMatch;
      if (identity && match?.issuer === issuer && match.subject === subject) {
        return ok(v1Identity(identity));
      }
    }
    throw notFound(`identity with issuer ${issuer} and subject ${subject}`);
  }
  if (rest !== undefined) throw unsupported(request);
  const items: JsonObject[] = [];
  for (const uid of v1Scope(request, ctx.state.identities)) {
    const identity = readableIdentity(ctx, access, uid);
    if (identity) items.push(v1Identity(identity));
  }
  return ok({ items });
};
