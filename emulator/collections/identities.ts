/**
 * Identities: `/iam/v2beta1/identities`, who may exchange an OIDC token for an API
 * token. The wire shape of an identity lives here; the rules of its four kinds
 * (`claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal`) in
 * `../identity-kinds/`, whose matching the token exchange reads too.
 */
import { type Access, isSameOrBelow } from "../access";
import { ApiError } from "../errors";
import { relationshipOut } from "../identity-kinds/answers";
import {
  applyRelationshipUpdate,
  IDENTITY_MASK_PATHS,
  identityUpdatePaths,
} from "../identity-kinds/masks";
import { parseRelationship } from "../identity-kinds/parse";
import {
  IDENTITY_KINDS,
  kindOf,
  type Relationship,
  relationshipOf,
  relationshipTypeFilter,
  STATIC_KEYS_MAX_LIFETIME_MS,
} from "../identity-kinds/shapes";
import type { IdentityRecord } from "../model";
import { type JsonObject, optionalString } from "../requests";
import * as kit from "./kit";
import { refuseIdentityDelete } from "./references";
import { writableCollection } from "./writable";

export function identityOut(identity: IdentityRecord): JsonObject {
  return {
    uid: identity.uid,
    name: identity.name,
    description: identity.description,
    ...relationshipOut(identity),
    ...(identity.lastSeenTime ? { lastSeenTime: identity.lastSeenTime } : {}),
    createTime: identity.createTime,
    updateTime: identity.updateTime,
  };
}

/** `record` with `relationship` as its only relationship member. */
function withRelationship(record: IdentityRecord, relationship: Relationship): IdentityRecord {
  const next: IdentityRecord = { ...record };
  for (const kind of IDENTITY_KINDS) delete next[kind];
  return { ...next, ...relationship };
}

/**
 * Changing how an identity authenticates hands its role bindings to whoever the new
 * claims admit, so it needs what granting those bindings needs: every capability each
 * binding's role grants, on that binding's group (no one grants more than they hold).
 * The refusal names the group when it is the identity's own group or an ancestor (the
 * caller sees those uids in the identity's uid), otherwise the identity, so that it
 * never discloses a group the caller may not know. `why` names the write that hands
 * the bindings over (an account association's service bindings do too).
 */
export function requireEveryGrantOf(
  ctx: kit.EmulatorContext,
  access: Access,
  identityUid: string,
  why = "changing how an identity authenticates requires every capability its bindings grant",
): void {
  for (const binding of ctx.state.bindingsOfIdentity(identityUid)) {
    const role = ctx.state.roles.get(binding.roleUid);
    if (!role) continue;
    const groupUid = kit.parentOf(binding.uid) ?? "";
    for (const capability of role.capabilities) {
      if (access.can(capability, groupUid)) continue;
      const where = isSameOrBelow(identityUid, groupUid) ? groupUid : identityUid;
      throw new ApiError(
        "PERMISSION_DENIED",
        `Permission denied: ${capability} on ${where} (identity ${identityUid} holds it through a role binding; ${why})`,
      );
    }
  }
}

interface IdentityDraft {
  name: string;
  description: string;
  relationship: Relationship;
  /** No `staticKeys.expirationTime` was given: it becomes `createTime` + 365 days. */
  defaultExpiration: boolean;
}

/** The list filter names of 6.9 (both spellings, so a page token is bound to either). */
const RELATIONSHIP_FILTERS = ["relationship_type", "relationshipType"];

export const identities = writableCollection<IdentityRecord, IdentityDraft>({
  name: "identities",
  out: (_ctx, identity) => identityOut(identity),
  list: {
    sortName: (_ctx, identity) => identity.name,
    filters: RELATIONSHIP_FILTERS,
    match: (_ctx, params) => {
      const kind = relationshipTypeFilter(new URLSearchParams(params.filters));
      return kind && ((identity) => kindOf(identity) === kind);
    },
  },
  create: {
    parentHint: "the owning group uid belongs in the path",
    body: (ctx, body) => {
      const name = kit.requireSizedName(body.name);
      const description = optionalString(body, "description") ?? "";
      const relationship = parseRelationship(body, ctx.clock.nowMs());
      const given = body.staticKeys as JsonObject | undefined;
      const defaultExpiration =
        relationship.staticKeys !== undefined &&
        (given?.expirationTime === undefined ||
          given.expirationTime === null ||
          given.expirationTime === "");
      return { name, description, relationship, defaultExpiration };
    },
    build: (ctx, draft, parentUid, now) => {
      const relationship = draft.relationship;
      if (relationship.staticKeys && draft.defaultExpiration) {
        relationship.staticKeys.expirationTime = new Date(
          Date.parse(now) + STATIC_KEYS_MAX_LIFETIME_MS,
        ).toISOString();
      }
      return {
        // A new identity never takes a uid that a role binding still names: it would
        // inherit that binding's grants (re-creation must not restore access).
        uid: kit.newChildUid(
          parentUid,
          (candidate) =>
            ctx.state.identities.has(candidate) ||
            ctx.state.groups.has(candidate) ||
            ctx.state.countBindingsOfIdentity(candidate) > 0,
        ),
        name: draft.name,
        description: draft.description,
        ...relationship,
        createTime: now,
        updateTime: now,
      };
    },
  },
  update: {
    writable: IDENTITY_MASK_PATHS,
    fields: ["name", "description", ...IDENTITY_KINDS],
    apply: (ctx, current, body, _paths, _masked, request) => {
      // The paths again, from the request: `*` stands for the object of the current
      // kind, and a path of another kind is refused (addendum 6.8).
      const paths = identityUpdatePaths(request, body, current);
      let next: IdentityRecord = { ...current };
      if (paths.includes("name")) next.name = kit.requireSizedName(body.name, "name", current.name);
      if (paths.includes("description")) {
        next.description = optionalString(body, "description") ?? "";
      }
      next = withRelationship(
        next,
        applyRelationshipUpdate(relationshipOf(current), body, paths, ctx.clock.nowMs()),
      );
      return next;
    },
    grants: ({ ctx, access, current, next }) => {
      if (JSON.stringify(relationshipOut(current)) !== JSON.stringify(relationshipOut(next))) {
        requireEveryGrantOf(ctx, access, current.uid);
      }
    },
  },
  delete: {
    refuse: (ctx, identity) => refuseIdentityDelete(ctx.state, identity.uid),
  },
});
