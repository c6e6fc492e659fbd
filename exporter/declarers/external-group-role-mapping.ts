/** External group role mappings of the identity providers the program declares. */
import type { ExternalGroupRoleMapping } from "../../sdk/index";
import type { ExternalGroupRoleMappingDeclaration } from "../declarations";
import { assignNames, type NameCandidate, wordsOf } from "../names";
import type { Declarer } from "./build";
import { compareText, parentUidOf } from "./values";

export const externalGroupRoleMappingDeclarer: Declarer<
  ExternalGroupRoleMapping,
  ExternalGroupRoleMappingDeclaration
> = {
  // Those of the providers the program declares, in the providers' order, then by group id.
  select: (build) =>
    build.live.externalGroupRoleMappings
      .filter((m) => build.live.identityProviders.some((p) => p.uid === m.identityProviderUid))
      .sort(
        (a, b) =>
          build.groupRank(parentUidOf(a.identityProviderUid)) -
            build.groupRank(parentUidOf(b.identityProviderUid)) ||
          compareText(a.identityProviderUid, b.identityProviderUid) ||
          compareText(a.externalGroupId, b.externalGroupId) ||
          compareText(a.uid, b.uid),
      ),
  // `sso-engineering-viewer`: the provider's resource name, the outside group, the role.
  name: (build, mappings) =>
    assignNames(
      mappings.map((m): NameCandidate<string> => {
        const provider = build.nameOf("IdentityProvider", m.identityProviderUid)?.words ?? [];
        const role = wordsOf(build.roleOf(m.roleUid)?.name ?? "role");
        return {
          item: m.uid,
          uid: m.uid,
          levels: [[...provider, ...wordsOf(m.externalGroupId), ...role]],
        };
      }),
      "mapping",
    ),
  refersTo: (m) => [m.identityProviderUid, m.roleUid, m.scope],
  declare: (build, mappings) =>
    mappings.map((m) => {
      const provider = build.variableOf("IdentityProvider", m.identityProviderUid);
      return {
        resourceName: build.nameOf("ExternalGroupRoleMapping", m.uid)!.resourceName,
        uid: m.uid,
        identityProvider: provider
          ? { kind: "resource", variable: provider }
          : build.outsideValue(
              m.identityProviderUid,
              ["identity", "provider"],
              "An identity provider.",
            ),
        externalGroupId: m.externalGroupId,
        role: build.roleExpression(m.roleUid, ""),
        // The scope is the organisation: a declared group only when the export is of it.
        scope:
          build.variableOf("Group", m.scope) !== undefined || m.scope === build.top.uid
            ? build.groupExpression(m.scope)
            : build.outsideValue(m.scope, ["organisation"], "The organisation (root group)."),
      };
    }),
};
