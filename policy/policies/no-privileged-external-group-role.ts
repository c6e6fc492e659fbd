/**
 * `irm-no-privileged-external-group-role`: an ExternalGroupRoleMapping gives its role,
 * on the whole organisation, to everyone the outside identity provider says is in the
 * group, so who holds the role is decided outside the platform. A role that grants
 * access (`owner`, another name in `privilegedRoles`, or any role holding one of
 * `accessGrantingCapabilities`, the set `irm-no-privileged-default-role` uses) is
 * reported unless the outside group is in `allowedExternalGroups`. Advisory: mapping an
 * administrators' group to `owner` is a deliberate choice some teams make.
 *
 * A stack policy: the provider holds only the role's uid, so the role is found in the
 * stack (`IrmStack.roleOf`); a role it cannot name yet gets a note, never a finding.
 */
import { capabilitiesInEnumNames } from "../../sdk/capabilities";
import { reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_CARDS } from "../names";
import { IRM_TYPES } from "../resource-types";
import { readString } from "../values";
import { ACCESS_GRANTING_CAPABILITIES } from "./no-privileged-default-role";

export interface NoPrivilegedExternalGroupRoleConfig {
  /** Role names reported whatever their capabilities. */
  privilegedRoles: string[];
  /** Capabilities (enum names, `CAP_...`) any one of which makes a role privileged. */
  accessGrantingCapabilities: string[];
  /** Outside group ids whose mappings may hold a privileged role. */
  allowedExternalGroups: string[];
}

export const noPrivilegedExternalGroupRoleDefaults: NoPrivilegedExternalGroupRoleConfig = {
  privilegedRoles: ["owner"],
  accessGrantingCapabilities: [...ACCESS_GRANTING_CAPABILITIES],
  allowedExternalGroups: [],
};

/** An outside group's mapping should not hold a role that grants access, unless allowed. */
export const noPrivilegedExternalGroupRole = stackPolicy({
  ...POLICY_CARDS.noPrivilegedExternalGroupRole,
  defaults: noPrivilegedExternalGroupRoleDefaults,
  schema: {
    privilegedRoles: stringList("Role names reported for an outside group's mapping."),
    accessGrantingCapabilities: stringList(
      "Capabilities (enum names such as CAP_IAM_ROLE_BINDINGS_CREATE) any one of which makes a mapped role privileged.",
    ),
    allowedExternalGroups: stringList(
      "Outside group ids whose mappings may hold a privileged role.",
    ),
  },
  validate: (stack, settings, report) => {
    const granting = new Set(capabilitiesInEnumNames(settings.accessGrantingCapabilities));
    const mappings = stack.resources.filter((r) => r.type === IRM_TYPES.externalGroupRoleMapping);
    for (const mapping of mappings) {
      const group = readString(mapping.props, "externalGroupId");
      if (typeof group === "string" && settings.allowedExternalGroups.includes(group)) continue;
      const role = stack.roleOf(mapping, "roleUid");
      if (!role.known) {
        reportNotKnownYet(
          report,
          `ExternalGroupRoleMapping '${mapping.name}' cannot be checked for a privileged role yet: ${role.reason}.`,
          mapping.urn,
        );
        continue;
      }
      const { name, capabilities = [] } = role.value;
      const writes = capabilitiesInEnumNames(capabilities).filter((c) => granting.has(c));
      const why = settings.privilegedRoles.includes(name)
        ? `the privileged role '${name}'`
        : writes.length > 0
          ? `role '${name}', which can grant access (${writes.join(", ")})`
          : undefined;
      if (why === undefined) continue;
      const shown = typeof group === "string" ? `'${group}'` : "its outside group";
      report(
        `ExternalGroupRoleMapping '${mapping.name}' gives ${why} on the whole organisation to every member of ${shown}, as the identity provider asserts membership. ` +
          `Fix: map the group to a role that only reads or uses what it needs, bind wider roles to named people, or add the group to allowedExternalGroups if this is deliberate.`,
        mapping.urn,
      );
    }
  },
});
