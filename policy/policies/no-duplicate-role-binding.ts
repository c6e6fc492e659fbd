/**
 * `irm-no-duplicate-role-binding`: two RoleBindings of a stack must not bind the same
 * identity to the same role in the same group. The API refuses the second one
 * (ALREADY_EXISTS); this says so in preview, naming both.
 */
import type { PolicyResource, StackValidationPolicy } from "@pulumi/policy";
import { type PolicyOptions, quoted, stackPolicy } from "../define";
import { POLICY_CARDS } from "../names";

/** This policy has no settings besides its enforcement level. */
export type NoDuplicateRoleBindingConfig = Record<string, never>;

/** Two RoleBindings of a stack must not connect the same identity, role and group. */
export const noDuplicateRoleBinding: (
  options?: Omit<PolicyOptions<NoDuplicateRoleBindingConfig>, "config">,
) => StackValidationPolicy = stackPolicy<NoDuplicateRoleBindingConfig>({
  ...POLICY_CARDS.noDuplicateRoleBinding,
  defaults: {},
  schema: {},
  validate: (stack, _settings, report) => {
    const firstOfKey = new Map<string, PolicyResource>();
    for (const binding of stack.bindings) {
      const ends = [
        stack.endKey(binding, "identity"),
        stack.endKey(binding, "role"),
        stack.endKey(binding, "group"),
      ];
      // An end that cannot be told apart yet cannot be a known duplicate.
      if (ends.some((end) => end === undefined)) continue;
      const key = ends.join("\n");
      const first = firstOfKey.get(key);
      if (!first) {
        firstOfKey.set(key, binding);
        continue;
      }
      report(
        `RoleBinding '${binding.name}' duplicates RoleBinding '${first.name}': both bind identity ${quoted(stack.name(binding, "identity"), "(same identity)")} ` +
          `to role ${quoted(stack.name(binding, "role"), "(same role)")} in group ${quoted(stack.name(binding, "group"), "(same group)")}. ` +
          `The API refuses the second one (ALREADY_EXISTS). Fix: remove one of them.`,
        binding.urn,
      );
    }
  },
});
