/**
 * What makes a role privileged: what it can do, not what it is called. A role is
 * privileged when it holds a capability that lets its holder give itself or others
 * more access than they have (docs/policy.md, "Privileged capabilities", says why each
 * one is here), or when its name is on a policy's `privilegedRoles` list.
 *
 * Shared by `irm-no-privileged-role-for-workload-identity` and
 * `irm-no-privileged-default-role`.
 */

import {
  EDITOR_CAPABILITIES,
  OWNER_CAPABILITIES,
  REGISTRY_PULL_CAPABILITIES,
  VIEWER_CAPABILITIES,
} from "../emulator/capabilities";
import { capabilitiesInEnumNames, isCapability } from "../sdk/capabilities";
import type { Fact, RoleFacts } from "./facts";

/**
 * The capabilities, of the platform's published `Capability` enum, whose holder can
 * grant itself or others more: write roles (widen a role it holds), write role bindings
 * (bind any role it can see, `owner` included, to any identity), write identities
 * (create one it controls, or rewrite the claims of one that holds more: impersonation),
 * write identity providers or manage their SCIM users (let chosen people sign in with
 * the provider's default role), create group invites (mint a code for any role), and
 * write account associations (link outside accounts that then act in the group).
 * Deletes are not here: they take access away, they never grant it.
 */
export const PRIVILEGED_CAPABILITIES: readonly string[] = [
  "CAP_IAM_ROLES_CREATE",
  "CAP_IAM_ROLES_UPDATE",
  "CAP_IAM_ROLE_BINDINGS_CREATE",
  "CAP_IAM_ROLE_BINDINGS_UPDATE",
  "CAP_IAM_IDENTITY_CREATE",
  "CAP_IAM_IDENTITY_UPDATE",
  "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
  "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
  "CAP_IAM_SCIM_MANAGE",
  "CAP_IAM_GROUP_INVITES_CREATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
];

/** The published capability sets of the built-in roles, by name (they never change name). */
export const BUILT_IN_ROLE_CAPABILITIES: Readonly<Record<string, readonly string[]>> = {
  owner: OWNER_CAPABILITIES,
  editor: EDITOR_CAPABILITIES,
  viewer: VIEWER_CAPABILITIES,
  "registry.pull": REGISTRY_PULL_CAPABILITIES,
};

/** What a policy does with a role whose capabilities are not known when it judges. */
export type UnknownRoleLevel = "mandatory" | "advisory";

/** Schema of the `unknownRoleLevel` setting. */
export const unknownRoleLevelSchema = (what: string) => ({
  type: "string" as const,
  enum: ["mandatory", "advisory"],
  description: `How a ${what} whose role's capabilities are not known in preview is reported: mandatory (the preview fails: it cannot be judged yet) or advisory (a note).`,
});

/**
 * The setting as a set of enum names; a former project name counts as its enum name,
 * and anything that is not a capability fails naming the policy and the setting.
 */
export function capabilitySetting(
  policy: string,
  setting: string,
  values: readonly string[],
): ReadonlySet<string> {
  const set = new Set(capabilitiesInEnumNames(values));
  const wrong = [...set].filter((name) => !isCapability(name));
  if (wrong.length > 0) {
    throw new Error(
      `${policy}: ${setting}: ${wrong.map((n) => `'${n}'`).join(", ")} ` +
        "is not a capability; write the enum names (CAP_IAM_ROLE_BINDINGS_CREATE, ...)",
    );
  }
  return set;
}

/** A role judged: privileged (and why, in words), not privileged, or not judgeable yet. */
export type RoleJudgement =
  | { kind: "privileged"; why: string }
  | { kind: "unprivileged" }
  | { kind: "unknown"; reason: string };

/** Judges a role by its name, then by its capabilities. */
export function judgeRole(
  role: Fact<RoleFacts>,
  privilegedNames: readonly string[],
  privilegedCapabilities: ReadonlySet<string>,
): RoleJudgement {
  if (!role.known) return { kind: "unknown", reason: role.reason };
  const { name, capabilities } = role.value;
  if (privilegedNames.includes(name)) {
    return { kind: "privileged", why: `the privileged role '${name}'` };
  }
  if (capabilities === undefined) {
    return {
      kind: "unknown",
      reason: `the capabilities of role '${name}' are not known yet`,
    };
  }
  const held = capabilitiesInEnumNames(capabilities).filter((c) => privilegedCapabilities.has(c));
  if (held.length === 0) return { kind: "unprivileged" };
  return {
    kind: "privileged",
    why: `role '${name}', which can grant access (${held.join(", ")})`,
  };
}
