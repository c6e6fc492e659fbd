/**
 * Identities: `/iam/v2beta1/identities`, who may exchange an OIDC token for an API
 * token. The wire shape and validation of an identity live here.
 */
import { type Access, isSameOrBelow } from "../access";
import { ApiError, invalidArgument } from "../errors";
import type { IdentityRecord } from "../model";
import { type JsonObject, optionalObject, optionalString } from "../requests";
import {
  type EmulatorContext,
  existing,
  newChildUid,
  parentPath,
  requireHttpUrl,
  requireName,
} from "./kit";
import { refuseIdentityDelete } from "./references";
import { writableCollection } from "./writable";

export function identityOut(identity: IdentityRecord): JsonObject {
  return {
    uid: identity.uid,
    name: identity.name,
    description: identity.description,
    claimMatch: { ...identity.claimMatch },
    ...(identity.lastSeenTime ? { lastSeenTime: identity.lastSeenTime } : {}),
    createTime: identity.createTime,
    updateTime: identity.updateTime,
  };
}

function requireSubject(value: unknown, field: string): string {
  if (typeof value !== "string" && value !== undefined && value !== null) {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || value === "") throw invalidArgument(field, "is required");
  return value;
}

function sameClaimMatch(a: IdentityRecord["claimMatch"], b: IdentityRecord["claimMatch"]): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

/**
 * Changing how an identity authenticates hands its role bindings to whoever the new
 * claims admit, so it needs what granting those bindings needs: every capability each
 * binding's role grants, on that binding's group (no one grants more than they hold).
 * The refusal names the group when it is the identity's own group or an ancestor (the
 * caller sees those uids in the identity's uid), otherwise the identity, so that it
 * never discloses a group the caller may not know.
 */
function requireEveryGrantOf(ctx: EmulatorContext, access: Access, identityUid: string): void {
  for (const binding of ctx.state.bindingsOfIdentity(identityUid)) {
    const role = ctx.state.roles.get(binding.roleUid);
    if (!role) continue;
    const groupUid = parentPath(binding.uid);
    for (const capability of role.capabilities) {
      if (access.can(capability, groupUid)) continue;
      const where = isSameOrBelow(identityUid, groupUid) ? groupUid : identityUid;
      throw new ApiError(
        "PERMISSION_DENIED",
        `Permission denied: ${capability} on ${where} (identity ${identityUid} holds it through a role binding; changing how an identity authenticates requires every capability its bindings grant)`,
      );
    }
  }
}

interface IdentityDraft {
  name: string;
  description: string;
  claimMatch: IdentityRecord["claimMatch"];
}

export const identities = writableCollection<IdentityRecord, IdentityDraft>({
  name: "identities",
  store: (state) => state.identities,
  out: (_ctx, identity) => identityOut(identity),
  list: { sortName: (_ctx, identity) => identity.name },
  create: {
    parentHint: "the owning group uid belongs in the path",
    body: (_ctx, body) => {
      const name = requireName(body.name);
      const description = optionalString(body, "description") ?? "";
      const claimMatch = optionalObject(body, "claimMatch") ?? {};
      return {
        name,
        description,
        claimMatch: {
          issuer: requireHttpUrl(claimMatch.issuer, "claimMatch.issuer"),
          subject: requireSubject(claimMatch.subject, "claimMatch.subject"),
        },
      };
    },
    references: ({ ctx, parentUid }) => {
      existing(ctx.state.groups, parentUid);
    },
    build: (ctx, draft, parentUid, now) => ({
      // A new identity never takes a uid that a role binding still names: it would
      // inherit that binding's grants (re-creation must not restore access).
      uid: newChildUid(
        parentUid,
        (candidate) =>
          ctx.state.identities.has(candidate) ||
          ctx.state.groups.has(candidate) ||
          ctx.state.countBindingsOfIdentity(candidate) > 0,
      ),
      name: draft.name,
      description: draft.description,
      claimMatch: draft.claimMatch,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    writable: ["name", "description", "claimMatch", "claimMatch.issuer", "claimMatch.subject"],
    fields: ["name", "description", "claimMatch"],
    apply: (_ctx, current, body, paths) => {
      const next: IdentityRecord = { ...current, claimMatch: { ...current.claimMatch } };
      for (const path of paths) {
        switch (path) {
          case "name":
            next.name = requireName(body.name);
            break;
          case "description":
            next.description = optionalString(body, "description") ?? "";
            break;
          case "claimMatch": {
            const whole = optionalObject(body, "claimMatch") ?? {};
            next.claimMatch = {
              issuer: requireHttpUrl(whole.issuer, "claimMatch.issuer"),
              subject: requireSubject(whole.subject, "claimMatch.subject"),
            };
            break;
          }
          case "claimMatch.issuer":
            next.claimMatch.issuer = requireHttpUrl(
              optionalObject(body, "claimMatch")?.issuer,
              "claimMatch.issuer",
            );
            break;
          case "claimMatch.subject":
            next.claimMatch.subject = requireSubject(
              optionalObject(body, "claimMatch")?.subject,
              "claimMatch.subject",
            );
            break;
        }
      }
      return next;
    },
    grants: ({ ctx, access, current, next }) => {
      if (!sameClaimMatch(current.claimMatch, next.claimMatch)) {
        requireEveryGrantOf(ctx, access, current.uid);
      }
    },
  },
  delete: {
    refuse: (ctx, identity) => refuseIdentityDelete(ctx.state, identity.uid),
  },
});
