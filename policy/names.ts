/** Names the pack's policies and reports are known by. */

/** Name of the shipped pack. */
export const PACK_NAME = "irm-guardrails";

/** The policies' names, as they appear in reports and in the pack's configuration. */
export const POLICY_NAMES = {
  noPrivilegedRoleForWorkloadIdentity: "irm-no-privileged-role-for-workload-identity",
  rootGroupBindingAllowList: "irm-root-group-binding-allow-list",
  identityIssuerAllowList: "irm-identity-issuer-allow-list",
  noBroadIdentitySubject: "irm-no-broad-identity-subject",
  noDuplicateRoleBinding: "irm-no-duplicate-role-binding",
  groupDescriptionRequired: "irm-group-description-required",
  noMatchAllIdentityPattern: "irm-no-match-all-identity-pattern",
  noLongLivedOrReusableInvite: "irm-no-long-lived-or-reusable-invite",
  noPrivilegedDefaultRole: "irm-no-privileged-default-role",
  noPrivilegedExternalGroupRole: "irm-no-privileged-external-group-role",
} as const;

/** Issuer of GitHub Actions OIDC tokens (github.com). */
export const GITHUB_ACTIONS_ISSUER = "https://token.actions.githubusercontent.com";
