/**
 * External group role mappings: `/iam/v2beta1/externalGroupRoleMappings`, a group of an
 * identity provider's users (by the provider's own group id) granted a role at a scope.
 * A mapping's uid is a child of its identity provider's uid; a mapping never changes (the
 * definitions: delete and recreate), so there is no update. Its calls need the identity
 * providers' capabilities, and a create also `CAP_IAM_ROLE_BINDINGS_CREATE`.
 */
import { EXTERNAL_GROUP_ID_MAX_LENGTH } from "../../sdk/resources/external-group-role-mappings";
import { isSameOrBelow } from "../access";
import { alreadyExists, invalidArgument } from "../errors";
import { capabilityFor } from "../kinds";
import type { ExternalGroupRoleMappingRecord } from "../model";
import { type ApiRequest, bodyObject, type JsonObject, ok, optionalString } from "../requests";
import * as kit from "./kit";
import { promisedRoleSteps } from "./roles";
import { type CreateWrite, writableCollection } from "./writable";

export function mappingOut(mapping: ExternalGroupRoleMappingRecord): JsonObject {
  return {
    uid: mapping.uid,
    identityProviderUid: kit.parentOf(mapping.uid),
    externalGroupId: mapping.externalGroupId,
    roleUid: mapping.roleUid,
    scope: mapping.scope,
    createTime: mapping.createTime,
  };
}

interface MappingDraft {
  externalGroupId: string;
  roleUid: string;
  scope: string;
}

/** The organisation (root group) an identity provider belongs to. */
function organisationOf(uid: string): string {
  return uid.split("/")[0] ?? uid;
}

const roleSteps = promisedRoleSteps<CreateWrite<MappingDraft>>((write) => ({
  ctx: write.ctx,
  access: write.access,
  groupUid: write.draft.scope,
  roleUid: write.draft.roleUid,
  field: "roleUid",
}));

export const externalGroupRoleMappings = writableCollection<
  ExternalGroupRoleMappingRecord,
  MappingDraft
>({
  name: "externalGroupRoleMappings",
  out: (_ctx, mapping) => mappingOut(mapping),
  list: {
    filters: [
      { key: "identityProviderUid", names: ["identity_provider_uid", "identityProviderUid"] },
    ],
    sortName: (_ctx, mapping) => mapping.externalGroupId,
    match: (_ctx, params) => {
      const provider = params.filters.identityProviderUid;
      if (!provider) return undefined;
      return (mapping) => kit.parentOf(mapping.uid) === provider;
    },
  },
  create: {
    parentHint: "the identity provider uid belongs in the path",
    parentCollection: "identityProviders",
    capabilities: [
      capabilityFor("identityProviders", "create"),
      capabilityFor("roleBindings", "create"),
    ],
    body: (_ctx, body, parentUid) => {
      const externalGroupId = optionalString(body, "externalGroupId") ?? "";
      if (externalGroupId.trim() === "") throw invalidArgument("externalGroupId", "is required");
      if (externalGroupId.length > EXTERNAL_GROUP_ID_MAX_LENGTH) {
        throw invalidArgument(
          "externalGroupId",
          `must be at most ${EXTERNAL_GROUP_ID_MAX_LENGTH} characters`,
        );
      }
      const roleUid = optionalString(body, "roleUid");
      if (!roleUid) throw invalidArgument("roleUid", "is required");
      const scope = optionalString(body, "scope");
      if (!scope) throw invalidArgument("scope", "is required");
      kit.requirePathUid(scope, "scope");
      // The definitions: the scope is "currently constrained to org root".
      if (scope !== organisationOf(parentUid)) {
        throw invalidArgument(
          "scope",
          "must be the organisation (root group) of the identity provider",
        );
      }
      return { externalGroupId, roleUid: kit.requireRoleUid(roleUid, "roleUid"), scope };
    },
    ...roleSteps,
    unique: ({ ctx, parentUid, draft }) => {
      const store = ctx.state.externalGroupRoleMappings;
      const { uids, start, end } = store.childrenOf(parentUid);
      for (const mapping of uids.slice(start, end).map((uid) => store.get(uid))) {
        if (
          mapping &&
          mapping.externalGroupId === draft.externalGroupId &&
          mapping.roleUid === draft.roleUid &&
          mapping.scope === draft.scope
        ) {
          throw alreadyExists(
            `a mapping of ${draft.externalGroupId} to ${draft.roleUid} in ${parentUid}`,
          );
        }
      }
    },
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) =>
        ctx.state.externalGroupRoleMappings.has(candidate),
      ),
      ...draft,
      createTime: now,
      updateTime: now,
    }),
  },
  delete: {
    // The definitions declare the delete idempotent: a missing mapping is no error.
    load: (ctx, uid) => ctx.state.externalGroupRoleMappings.get(uid),
  },
});

/**
 * `POST /iam/v2beta1/externalGroupRoleMappings:batchDelete`: the named mappings of one
 * identity provider, all or none. Every name is checked before anything is removed: a
 * name under another parent is INVALID_ARGUMENT `names`; a name no longer there is
 * skipped (the definitions say so). Answers the parent and the mappings removed.
 */
export const batchDeleteMappings: kit.CollectionHandler = async (ctx, request: ApiRequest, uid) => {
  if (request.method !== "POST" || uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const body = bodyObject(request);
  const parent = optionalString(body, "parent");
  if (!parent) throw invalidArgument("parent", "is required");
  kit.requirePathUid(parent, "parent");
  access.require(capabilityFor("externalGroupRoleMappings", "delete"), parent);
  const names = body.names;
  if (!Array.isArray(names) || names.length === 0) {
    throw invalidArgument("names", "is required: the uids of the mappings to delete");
  }
  kit.existing(ctx.state.identityProviders, parent);
  const found: ExternalGroupRoleMappingRecord[] = [];
  const seen = new Set<string>();
  for (const [index, name] of names.entries()) {
    if (typeof name !== "string" || kit.parentOf(name) !== parent || !isSameOrBelow(name, parent)) {
      throw invalidArgument(`names[${index}]`, "must be the uid of a mapping of parent");
    }
    const mapping = ctx.state.externalGroupRoleMappings.get(name);
    if (mapping && !seen.has(name)) {
      seen.add(name);
      found.push(mapping);
    }
  }
  for (const mapping of found) ctx.state.externalGroupRoleMappings.delete(mapping.uid);
  if (found.length > 0) ctx.state.touch();
  return ok({ parent, externalGroupRoleMappings: found.map(mappingOut) });
};
