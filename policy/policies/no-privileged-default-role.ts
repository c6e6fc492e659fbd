/**
 * `irm-no-privileged-default-role`: an IdentityProvider's `defaultRole` is bound, in
 * the provider's group, to every user on their first sign-in through it, so it holds
 * for everyone the external OIDC provider lets sign in. It must not be a role that
 * grants access: `owner` (or another name in `privilegedRoles`), or any role holding
 * one of `accessGrantingCapabilities`: the writes of roles, role bindings, identity
 * providers (and their SCIM provisioning), group invites and account associations.
 * Of the published built-in roles only `owner` holds any of those; `editor`, `viewer`
 * and `registry.pull` hold none.
 *
 * Capabilities are the enum names the API uses (`CAP_IAM_ROLE_BINDINGS_CREATE`); a
 * role recorded with the project's former names (`roleBindings.create`, in a state
 * written by an earlier version) is judged by the same set in enum names.
 *
 * A stack policy: the provider holds only the role's uid, so the role is found in the
 * stack (see `IrmStack.roleOf`). A role the stack cannot name yet gets an advisory
 * note, as the binding policies do, never a mandatory refusal.
 */
import { capabilitiesInEnumNames, isCapability } from "../../sdk/capabilities";
import { reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_NAMES } from "../names";
import { IRM_TYPES } from "../resource-types";

export interface NoPrivilegedDefaultRoleConfig {
  /** Role names refused as a default role, whatever their capabilities. */
  privilegedRoles: string[];
  /** Capabilities (enum names, `CAP_...`) any one of which makes a role privileged. */
  accessGrantingCapabilities: string[];
}

/** The writes that grant access: whoever holds one can give themselves or others more. */
export const ACCESS_GRANTING_CAPABILITIES: readonly string[] = [
  "CAP_IAM_ROLES_CREATE",
  "CAP_IAM_ROLES_UPDATE",
  "CAP_IAM_ROLES_DELETE",
  "CAP_IAM_ROLE_BINDINGS_CREATE",
  "CAP_IAM_ROLE_BINDINGS_UPDATE",
  "CAP_IAM_ROLE_BINDINGS_DELETE",
  "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
  "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
  "CAP_IAM_IDENTITY_PROVIDERS_DELETE",
  "CAP_IAM_SCIM_MANAGE",
  "CAP_IAM_GROUP_INVITES_CREATE",
  "CAP_IAM_GROUP_INVITES_DELETE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE",
];

export const noPrivilegedDefaultRoleDefaults: NoPrivilegedDefaultRoleConfig = {
  privilegedRoles: ["owner"],
  accessGrantingCapabilities: [...ACCESS_GRANTING_CAPABILITIES],
};

/** The setting `accessGrantingCapabilities` replaced, which named collections. */
const FORMER_SETTING = "accessGrantingCollections";

/** An IdentityProvider's default role must not grant access. */
export const noPrivilegedDefaultRole = stackPolicy({
  name: POLICY_NAMES.noPrivilegedDefaultRole,
  description:
    "An IdentityProvider's defaultRole, given to every user who signs in through it, must not be owner or a role that can write roles, role bindings, identity providers, group invites or account associations.",
  enforcementLevel: "mandatory",
  severity: "critical",
  defaults: noPrivilegedDefaultRoleDefaults,
  schema: {
    privilegedRoles: stringList("Role names refused as an identity provider's default role."),
    accessGrantingCapabilities: stringList(
      "Capabilities (enum names such as CAP_IAM_ROLE_BINDINGS_CREATE) any one of which makes a default role privileged.",
    ),
  },
  validate: (stack, settings, report) => {
    if (FORMER_SETTING in settings) {
      // Silently ignoring it would judge by the defaults, not by what was configured.
      throw new Error(
        `${POLICY_NAMES.noPrivilegedDefaultRole}: the setting '${FORMER_SETTING}' is replaced by 'accessGrantingCapabilities', ` +
          `a list of capability enum names (e.g. 'roleBindings' becomes CAP_IAM_ROLE_BINDINGS_CREATE, CAP_IAM_ROLE_BINDINGS_UPDATE, CAP_IAM_ROLE_BINDINGS_DELETE)`,
      );
    }
    const granting = new Set(capabilitiesInEnumNames(settings.accessGrantingCapabilities));
    const notCapabilities = [...granting].filter((name) => !isCapability(name));
    if (notCapabilities.length > 0) {
      throw new Error(
        `${POLICY_NAMES.noPrivilegedDefaultRole}: accessGrantingCapabilities: ${notCapabilities.map((n) => `'${n}'`).join(", ")} ` +
          `is not a capability; write the enum names (CAP_IAM_ROLE_BINDINGS_CREATE, ...)`,
      );
    }
    const providers = stack.resources.filter((r) => r.type === IRM_TYPES.identityProvider);
    for (const provider of providers) {
      const role = stack.roleOf(provider, "defaultRole");
      if (!role.known) {
        reportNotKnownYet(
          report,
          `IdentityProvider '${provider.name}' cannot be checked for a privileged default role yet: ${role.reason}. ` +
            `It is checked again once the role is known (declare custom roles as Role resources in the stack).`,
          provider.urn,
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
      report(
        `IdentityProvider '${provider.name}' gives ${why} to every user who signs in through it. ` +
          `Fix: make defaultRole a role that only reads or uses what it needs (e.g. 'viewer', or a custom role without writes on access grants), and bind wider roles to named people.`,
        provider.urn,
      );
    }
  },
});
