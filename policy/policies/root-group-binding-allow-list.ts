/**
 * `irm-root-group-binding-allow-list`: a RoleBinding on the root organisation group
 * grants its role on every group of the organisation, so it needs an explicit entry
 * in an allow-list of identity and role names.
 */
import { quoted, reasonsOf, reportNotKnownYet, stackPolicy } from "../define";
import { POLICY_CARDS, POLICY_NAMES } from "../names";

/** One allowed binding on the root organisation group. */
export interface RootGroupBindingAllowance {
  /** Name of the identity. */
  identity: string;
  /** Name of the role; absent or `*` allows any role for that identity. */
  role?: string;
}

export interface RootGroupBindingAllowListConfig {
  allowedBindings: RootGroupBindingAllowance[];
}

export const rootGroupBindingAllowListDefaults: RootGroupBindingAllowListConfig = {
  allowedBindings: [],
};

/** A RoleBinding on the root organisation group must be on an explicit allow-list. */
export const rootGroupBindingAllowList = stackPolicy({
  ...POLICY_CARDS.rootGroupBindingAllowList,
  defaults: rootGroupBindingAllowListDefaults,
  schema: {
    allowedBindings: {
      type: "array",
      description:
        "Bindings allowed on the root organisation group, by identity name and role name (a missing role or '*' allows any role).",
      items: {
        type: "object",
        properties: { identity: { type: "string" }, role: { type: "string" } },
        required: ["identity"],
        additionalProperties: false,
      },
    },
  },
  validate: (stack, settings, report) => {
    for (const binding of stack.bindings) {
      const onRoot = stack.groupIsRoot(binding);
      if (!onRoot.known) {
        reportNotKnownYet(
          report,
          `RoleBinding '${binding.name}' cannot be checked for the root organisation group yet: ${onRoot.reason}.`,
          binding.urn,
        );
        continue;
      }
      if (!onRoot.value) continue;
      const identity = stack.name(binding, "identity");
      const role = stack.name(binding, "role");
      const where = `the root organisation group ${stack.groupUid(binding) ?? ""}`.trimEnd();
      if (settings.allowedBindings.length > 0) {
        if (!identity.known || !role.known) {
          reportNotKnownYet(
            report,
            `RoleBinding '${binding.name}' is on ${where} and cannot be matched against allowedBindings yet: ${reasonsOf(identity, role)}.`,
            binding.urn,
          );
          continue;
        }
        const allowed = settings.allowedBindings.some(
          (entry) =>
            entry.identity === identity.value &&
            (entry.role === undefined || entry.role === "*" || entry.role === role.value),
        );
        if (allowed) continue;
      }
      const entry =
        identity.known && role.known
          ? `{ "identity": "${identity.value}", "role": "${role.value}" }`
          : "an entry for it";
      report(
        `RoleBinding '${binding.name}' gives role ${quoted(role, "(name not known yet)")} to identity ${quoted(identity, "(name not known yet)")} on ${where}, ` +
          `which grants it on every group of the organisation. Fix: bind it on the child group that needs it, ` +
          `or add ${entry} to 'allowedBindings' of policy ${POLICY_NAMES.rootGroupBindingAllowList}.`,
        binding.urn,
      );
    }
  },
});
