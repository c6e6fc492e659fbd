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
 * A stack policy: the role is found as `IrmStack.roleOf` finds it (a `Role` of the
 * stack, what the provider's check read of it, a built-in role's name). A provider
 * this preview creates or changes whose default role cannot be judged is refused as
 * "cannot be judged yet" (`unknownRoleLevel`, default mandatory), never passed in
 * silence; an existing one gets an advisory note.
 */
import { reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_CARDS, POLICY_NAMES } from "../names";
import * as privileged from "../privileged";
import { IRM_TYPES } from "../resource-types";

export interface NoPrivilegedDefaultRoleConfig {
  /** Role names refused as a default role, whatever their capabilities. */
  privilegedRoles: string[];
  /** Capabilities (enum names, `CAP_...`) any one of which makes a role privileged. */
  accessGrantingCapabilities: string[];
  /** How a created or changed provider whose default role's capabilities are not known is reported. */
  unknownRoleLevel: privileged.UnknownRoleLevel;
}

/**
 * The privileged capabilities (`../privileged.ts`), and, since a default role is
 * everyone's who can sign in, the deletes of access grants too.
 */
export const ACCESS_GRANTING_CAPABILITIES: readonly string[] = [
  ...privileged.PRIVILEGED_CAPABILITIES,
  "CAP_IAM_ROLES_DELETE",
  "CAP_IAM_ROLE_BINDINGS_DELETE",
  "CAP_IAM_IDENTITY_PROVIDERS_DELETE",
  "CAP_IAM_GROUP_INVITES_DELETE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE",
];

export const noPrivilegedDefaultRoleDefaults: NoPrivilegedDefaultRoleConfig = {
  privilegedRoles: ["owner"],
  accessGrantingCapabilities: [...ACCESS_GRANTING_CAPABILITIES],
  unknownRoleLevel: "mandatory",
};

/** The setting `accessGrantingCapabilities` replaced, which named collections. */
const FORMER_SETTING = "accessGrantingCollections";

/** An IdentityProvider's default role must not grant access. */
export const noPrivilegedDefaultRole = stackPolicy({
  ...POLICY_CARDS.noPrivilegedDefaultRole,
  defaults: noPrivilegedDefaultRoleDefaults,
  schema: {
    privilegedRoles: stringList("Role names refused as an identity provider's default role."),
    accessGrantingCapabilities: stringList(
      "Capabilities (enum names such as CAP_IAM_ROLE_BINDINGS_CREATE) any one of which makes a default role privileged.",
    ),
    unknownRoleLevel: privileged.unknownRoleLevelSchema("created or changed IdentityProvider"),
  },
  validate: (stack, settings, report) => {
    if (FORMER_SETTING in settings) {
      // Silently ignoring it would judge by the defaults, not by what was configured.
      throw new Error(
        `${POLICY_NAMES.noPrivilegedDefaultRole}: the setting '${FORMER_SETTING}' is replaced by 'accessGrantingCapabilities', ` +
          `a list of capability enum names (e.g. 'roleBindings' becomes CAP_IAM_ROLE_BINDINGS_CREATE, CAP_IAM_ROLE_BINDINGS_UPDATE, CAP_IAM_ROLE_BINDINGS_DELETE)`,
      );
    }
    const granting = privileged.capabilitySetting(
      POLICY_NAMES.noPrivilegedDefaultRole,
      "accessGrantingCapabilities",
      settings.accessGrantingCapabilities,
    );
    const providers = stack.resources.filter((r) => r.type === IRM_TYPES.identityProvider);
    for (const provider of providers) {
      const judged = privileged.judgeRole(
        stack.roleOf(provider, "defaultRole"),
        settings.privilegedRoles,
        granting,
      );
      if (judged.kind === "unprivileged") continue;
      if (judged.kind === "unknown") {
        if (stack.planned(provider) && settings.unknownRoleLevel === "mandatory") {
          report(
            `IdentityProvider '${provider.name}' cannot be judged yet: ${judged.reason}, and its default role is given to every user who signs in through it. ` +
              `Fix: take defaultRole from getRole/getRoleOutput, a literal uid or a Role resource of this stack, so that the preview knows its capabilities (or set unknownRoleLevel to advisory).`,
            provider.urn,
          );
        } else {
          reportNotKnownYet(
            report,
            `IdentityProvider '${provider.name}' cannot be checked for a privileged default role yet: ${judged.reason}. ` +
              `It is checked again once the role is known (declare custom roles as Role resources in the stack).`,
            provider.urn,
          );
        }
        continue;
      }
      report(
        `IdentityProvider '${provider.name}' gives ${judged.why} to every user who signs in through it. ` +
          `Fix: make defaultRole a role that only reads or uses what it needs (e.g. 'viewer', or a custom role without writes on access grants), and bind wider roles to named people.`,
        provider.urn,
      );
    }
  },
});
