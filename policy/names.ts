/** Names the pack's policies and reports are known by. */

/** Name of the shipped pack. */
export const PACK_NAME = "irm-guardrails";

/** The levels and severities a card may name (as `@pulumi/policy` spells them). */
type Level = "advisory" | "mandatory";
type Severity = "low" | "medium" | "high" | "critical";

/**
 * Each policy's card: its name (as it appears in reports and in the pack's
 * configuration), what it asks, its default enforcement level and its severity.
 */
export const POLICY_CARDS = {
  noPrivilegedRoleForWorkloadIdentity: {
    name: "irm-no-privileged-role-for-workload-identity",
    description:
      "A RoleBinding must not give a privileged role (owner, or any role that can write roles, role bindings, identities, identity providers, invites or account associations) to an identity that authenticates with an external OIDC issuer.",
    enforcementLevel: "mandatory",
    severity: "critical",
  },
  rootGroupBindingAllowList: {
    name: "irm-root-group-binding-allow-list",
    description:
      "A RoleBinding on the root organisation group grants its role on the whole organisation and needs an explicit allow-list entry.",
    enforcementLevel: "advisory",
    severity: "high",
  },
  identityIssuerAllowList: {
    name: "irm-identity-issuer-allow-list",
    description: "An Identity must trust an https OIDC issuer from the allow-list.",
    enforcementLevel: "mandatory",
    severity: "high",
  },
  noBroadIdentitySubject: {
    name: "irm-no-broad-identity-subject",
    description:
      "An Identity's subject must not use wildcards; for GitHub Actions it must pin a repository and a ref or an environment.",
    enforcementLevel: "mandatory",
    severity: "high",
  },
  noDuplicateRoleBinding: {
    name: "irm-no-duplicate-role-binding",
    description:
      "Two RoleBindings in a stack must not bind the same identity to the same role in the same group.",
    enforcementLevel: "mandatory",
    severity: "medium",
  },
  groupDescriptionRequired: {
    name: "irm-group-description-required",
    description: "A Group carries a description saying what it holds and who owns it.",
    enforcementLevel: "advisory",
    severity: "low",
  },
  noMatchAllIdentityPattern: {
    name: "irm-no-match-all-identity-pattern",
    description:
      "An Identity's issuer, subject, audience and AWS patterns must not match every value (such as '.*'); an issuer pattern must pin the issuer's host.",
    enforcementLevel: "mandatory",
    severity: "critical",
  },
  noLongLivedOrReusableInvite: {
    name: "irm-no-long-lived-or-reusable-invite",
    description:
      "A GroupInvite's code grants its role to whoever holds it: an invite must be single-use and expire within a short time (default 7 days).",
    enforcementLevel: "mandatory",
    severity: "high",
  },
  noPrivilegedDefaultRole: {
    name: "irm-no-privileged-default-role",
    description:
      "An IdentityProvider's defaultRole, given to every user who signs in through it, must not be owner or a role that can write roles, role bindings, identities, identity providers, group invites or account associations.",
    enforcementLevel: "mandatory",
    severity: "critical",
  },
  noPrivilegedExternalGroupRole: {
    name: "irm-no-privileged-external-group-role",
    description:
      "An ExternalGroupRoleMapping gives its role on the whole organisation to every member of an outside group: it should not be owner or a role that can write roles, role bindings, identity providers, group invites or account associations, unless the group is allow-listed.",
    enforcementLevel: "advisory",
    severity: "high",
  },
} as const satisfies Record<
  string,
  { name: string; description: string; enforcementLevel: Level; severity: Severity }
>;

type Cards = typeof POLICY_CARDS;

/** The policies' names, as they appear in reports and in the pack's configuration. */
export const POLICY_NAMES = Object.fromEntries(
  Object.entries(POLICY_CARDS).map(([key, card]) => [key, card.name]),
) as { readonly [K in keyof Cards]: Cards[K]["name"] };

/** Issuer of GitHub Actions OIDC tokens (github.com). */
export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";
