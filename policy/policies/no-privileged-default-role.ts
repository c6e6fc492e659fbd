/**
 * `irm-no-privileged-default-role`: an IdentityProvider's `defaultRole` is bound, in
 * the provider's group, to every user on their first sign-in through it, so it holds
 * for everyone the external OIDC provider lets sign in. It must not be a role that
 * grants access: `owner` (or another name in `privilegedRoles`), or any role with a
 * write capability (`create`, `update`, `delete`) on a collection whose writes grant
 * access: roles, role bindings, identity providers, group invites and account
 * associations (the built-in `editor` holds none of those, by design).
 *
 * A stack policy: the provider holds only the role's uid, so the role is found in the
 * stack (see `IrmStack.roleOf`). A role the stack cannot name yet gets an advisory
 * note, as the binding policies do, never a mandatory refusal.
 */
import { reportNotKnownYet, stackPolicy, stringList } from "../define";
import { POLICY_NAMES } from "../names";
import { IRM_TYPES } from "../resource-types";

export interface NoPrivilegedDefaultRoleConfig {
  /** Role names refused as a default role, whatever their capabilities. */
  privilegedRoles: string[];
  /** Collections whose `create`, `update` or `delete` capability makes a role privileged. */
  accessGrantingCollections: string[];
}

export const noPrivilegedDefaultRoleDefaults: NoPrivilegedDefaultRoleConfig = {
  privilegedRoles: ["owner"],
  accessGrantingCollections: [
    "roles",
    "roleBindings",
    "identityProviders",
    "groupInvites",
    "accountAssociations",
  ],
};

const WRITE_VERBS: ReadonlySet<string> = new Set(["create", "update", "delete"]);

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
    accessGrantingCollections: stringList(
      "Collections whose create, update or delete capability makes a default role privileged.",
    ),
  },
  validate: (stack, settings, report) => {
    const granting = new Set(settings.accessGrantingCollections);
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
      const writes = capabilities.filter((capability) => {
        const [collection, verb] = capability.split(".");
        return granting.has(collection) && WRITE_VERBS.has(verb);
      });
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
