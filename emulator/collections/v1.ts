/**
 * The v1 paths still served, the calls the platform's own tools still make:
 * `GET /iam/v1/groups` and `GET /iam/v1/identities` (lists, with their `id`, `name` and
 * `uidp.*` filters), `GET /iam/v1/identities/lookup` (`issuer`, `subject`), the v1 lists
 * of roles, role bindings, identity providers, group invites and account associations
 * (answered by the v2beta1 lists, reshaped). The v1 registry's repos are `v1-repos.ts`.
 */

import { isSameOrBelow } from "../access";
import { notFound } from "../errors";
import { relationshipOut } from "../identity-kinds/answers";
import type { UidRange } from "../indexed-collection";
import { type CollectionName, capabilityFor, v2beta1Path } from "../kinds";
import { MAX_PAGE_SIZE } from "../listing";
import type { IdentityRecord } from "../model";
import type { ApiRequest, JsonObject } from "../requests";
import { ok } from "../requests";
import { accountAssociations } from "./account-associations";
import { groupInvites } from "./group-invites";
import { identityProviders } from "./identity-providers";
import * as kit from "./kit";
import { roleBindings } from "./role-bindings";
import { roleReadable, roles } from "./roles";

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
  if (id) return [kit.requirePathUid(id, "id")];
  const children = request.query.get("uidp.children_of") ?? request.query.get("uidp.childrenOf");
  if (children) return slice(index.childrenOf(kit.requirePathUid(children, "uidp.children_of")));
  const below = request.query.get("uidp.descendants_of") ?? request.query.get("uidp.descendantsOf");
  if (below) return slice(index.descendantsOf(kit.requirePathUid(below, "uidp.descendants_of")));
  const ids = request.query.getAll("uidp.ids");
  if (ids.length > 0) return ids.map((uid) => kit.requirePathUid(uid, "uidp.ids"));
  return slice(index.all());
}

export const v1Groups: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
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
  ctx: kit.EmulatorContext,
  access: Awaited<ReturnType<typeof kit.callerOf>>,
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

export const v1Identities: kit.CollectionHandler = async (ctx, request, rest) => {
  if (request.method !== "GET") throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
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
  if (rest !== undefined) throw kit.unsupported(request);
  const items: JsonObject[] = [];
  for (const uid of v1Scope(request, ctx.state.identities)) {
    const identity = readableIdentity(ctx, access, uid);
    if (identity) items.push(v1Identity(identity));
  }
  return ok({ items });
};

// ---------------------------------------------------------------- lists by the v2 lists

/** The `uidp.*` keys of a v1 filter, each with the camelCase form the gateway also reads. */
const UIDP_KEYS: ReadonlyArray<readonly [string, string]> = [
  ["uidp.ancestors_of", "uidp.ancestorsOf"],
  ["uidp.descendants_of", "uidp.descendantsOf"],
  ["uidp.children_of", "uidp.childrenOf"],
  ["uidp.in_root", "uidp.inRoot"],
  ["uidp.ids", "uidp.ids"],
];

interface V1List {
  /** The v2beta1 collection that answers, and the key of its list answer. */
  handler: kit.CollectionHandler;
  /** Its kind: the v2 list's path and the key of its answer. */
  kind: CollectionName;
  /** The v1 filter's fields the v2 list reads as they are (`name`, the `uidp.*` keys). */
  passes: { name?: boolean; uidp?: boolean; keyId?: boolean };
  /** The v1 filter's own conditions on a v2 item (`parent`, `group`); undefined = none. */
  own?(request: ApiRequest): ((item: JsonObject) => boolean) | undefined;
  /** A v2 item in the v1 shape. */
  shape(ctx: kit.EmulatorContext, item: JsonObject, access: CallerAccess): JsonObject;
}

type CallerAccess = Awaited<ReturnType<typeof kit.callerOf>>;

function firstOf(query: URLSearchParams, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = query.get(name);
    if (value !== null && value !== "") return value;
  }
  return undefined;
}

/** The `group` condition of a v1 filter: the items `match` ties to that group uid. */
function groupCondition(
  match: (item: JsonObject, group: string) => boolean,
): NonNullable<V1List["own"]> {
  return (request) => {
    const group = firstOf(request.query, "group");
    if (group === undefined) return undefined;
    kit.requirePathUid(group, "group");
    return (item) => match(item, group);
  };
}

/**
 * A v1 List answered by its v2beta1 List: the v1 filter becomes the v2 query (`id` an
 * exact uid, `name` and `uidp.*` as they are), every page of the v2 answer is read with
 * the caller's own token (so the caller sees exactly what the v2 list shows it), and
 * each item is reshaped into the v1 message (`id`, `items`). v1 lists have no pages.
 */
export function v1List(spec: V1List): kit.CollectionHandler {
  return async (ctx, request, rest) => {
    if (request.method !== "GET" || rest !== undefined) throw kit.unsupported(request);
    const access = await kit.callerOf(ctx, request, true);
    const query = new URLSearchParams();
    const id = firstOf(request.query, "id");
    if (id !== undefined) kit.requirePathUid(id, "id");
    if (spec.passes.uidp) {
      for (const [snake, camel] of UIDP_KEYS) {
        const values = request.query.getAll(snake);
        for (const value of values.length > 0 ? values : request.query.getAll(camel)) {
          if (value !== "") query.append(snake, value);
        }
      }
    }
    // `id` narrows the v2 list to one uid (and is checked on each item, so that it also
    // narrows a `uidp.ids` given beside it).
    if (id !== undefined && !query.has("uidp.ids")) query.set("uidp.ids", id);
    const name = firstOf(request.query, "name");
    if (spec.passes.name && name !== undefined) query.set("name", name);
    const keyId = firstOf(request.query, "key_id", "keyId");
    if (spec.passes.keyId && keyId !== undefined) query.set("key_id", keyId);
    const own = spec.own?.(request);
    query.set("page_size", String(MAX_PAGE_SIZE));
    const items: JsonObject[] = [];
    for (;;) {
      const answer = await spec.handler(
        ctx,
        {
          method: "GET",
          path: v2beta1Path(spec.kind),
          query,
          body: undefined,
          authorization: request.authorization,
        },
        undefined,
      );
      const body = answer.body as JsonObject;
      for (const item of (body[spec.kind] ?? []) as JsonObject[]) {
        if (id !== undefined && item.uid !== id) continue;
        if (own && !own(item)) continue;
        items.push(spec.shape(ctx, item, access));
      }
      const next = typeof body.nextPageToken === "string" ? body.nextPageToken : "";
      if (next === "") break;
      query.set("page_token", next);
    }
    return ok({ items });
  };
}

/** A v1 `Role`: the stored role's capabilities when the caller may read the role. */
function v1Role(
  ctx: kit.EmulatorContext,
  access: CallerAccess,
  role: JsonObject | undefined,
): JsonObject | undefined {
  if (!role || typeof role.uid !== "string") return undefined;
  const stored = ctx.state.roles.get(role.uid);
  const readable = stored && roleReadable(access, stored) ? stored : undefined;
  return {
    id: role.uid,
    name: role.name ?? "",
    description: role.description ?? "",
    capabilities: readable ? [...readable.capabilities] : [],
  };
}

/** A v1 `Role`: the v2 role with `id` for its uid. */
function v1RoleOut(_ctx: kit.EmulatorContext, role: JsonObject): JsonObject {
  return {
    id: role.uid,
    name: role.name,
    description: role.description,
    capabilities: role.capabilities,
  };
}

export const v1Roles = v1List({
  handler: roles,
  kind: "roles",
  passes: { name: true, uidp: true },
  // `parent`: the exact group of a custom role, or `/` for the root (the built-in roles).
  own: (request) => {
    const parent = firstOf(request.query, "parent");
    if (parent === undefined) return undefined;
    if (parent === "/") return (role) => !String(role.uid).includes("/");
    kit.requirePathUid(parent, "parent");
    return (role) => String(role.uid).includes("/") && kit.parentOf(String(role.uid)) === parent;
  },
  shape: v1RoleOut,
});

/** A v1 `RoleBinding`: group and role inline, the identity's claim match flattened. */
function v1RoleBindingOut(
  ctx: kit.EmulatorContext,
  binding: JsonObject,
  access: CallerAccess,
): JsonObject {
  const identity = binding.identity as JsonObject;
  const group = binding.group as JsonObject;
  return {
    id: binding.uid,
    group: { id: group.uid, name: group.name, description: group.description },
    identity: identity.uid,
    role: v1Role(ctx, access, binding.role as JsonObject),
    claimMatchIssuer: identity.issuer ?? "",
    claimMatchSubject: identity.subject ?? "",
    createdAt: binding.createTime,
  };
}

export const v1RoleBindings = v1List({
  handler: roleBindings,
  kind: "roleBindings",
  passes: { uidp: true },
  shape: v1RoleBindingOut,
});

/**
 * A v1 `IdentityProvider`: the v2 answer without its times and the OIDC members v1 has
 * not; the client secret is never answered (v2 leaves it out too).
 */
function v1IdentityProviderOut(_ctx: kit.EmulatorContext, provider: JsonObject): JsonObject {
  const { uid, createTime: _created, updateTime: _updated, oidc, ...rest } = provider;
  const { pkceEnabled: _pkce, correlationRule: _rule, ...v1Oidc } = oidc as JsonObject;
  return { id: uid, ...rest, oidc: v1Oidc };
}

export const v1IdentityProviders = v1List({
  handler: identityProviders,
  kind: "identityProviders",
  passes: { name: true, uidp: true },
  shape: v1IdentityProviderOut,
});

/** A v1 `GroupInvite`: `expiration` for the expiry time, the role inline. */
function v1GroupInviteOut(
  ctx: kit.EmulatorContext,
  invite: JsonObject,
  access: CallerAccess,
): JsonObject {
  return {
    id: invite.uid,
    expiration: invite.expirationTime,
    keyId: invite.keyId,
    role: v1Role(ctx, access, (invite.role as JsonObject | undefined) ?? { uid: invite.roleUid }),
    email: invite.email,
    createdAt: invite.createTime,
    singleUse: invite.singleUse,
  };
}

export const v1GroupInvites = v1List({
  handler: groupInvites,
  kind: "groupInvites",
  passes: { keyId: true },
  // `group`: the invites rooted under that group (its own and its descendants').
  own: groupCondition((invite, group) =>
    isSameOrBelow(kit.parentOf(String(invite.uid)) ?? "", group),
  ),
  shape: v1GroupInviteOut,
});

/** A v1 `AccountAssociations`: the v2 answer without its times, `group` for its uid. */
function v1AccountAssociationOut(_ctx: kit.EmulatorContext, association: JsonObject): JsonObject {
  const { uid, createTime: _created, updateTime: _updated, ...rest } = association;
  return { group: uid, ...rest };
}

export const v1AccountAssociations = v1List({
  handler: accountAssociations,
  kind: "accountAssociations",
  passes: { name: true },
  // `group`: the exact group whose association it is (an association's uid is its group's).
  own: groupCondition((association, group) => association.uid === group),
  shape: v1AccountAssociationOut,
});
