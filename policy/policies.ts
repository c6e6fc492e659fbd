/**
 * `pulumi-irm/policy`: guard rails for IRM access, as `@pulumi/policy` policies.
 * Each policy is a module of `policies/` built with the helper of `define.ts`, and is
 * exported as a factory so a platform team can change its enforcement level or
 * default settings and compose its own pack; `irmPolicies()` returns them all, as the
 * shipped `irm-guardrails` pack (`index.ts`) uses them.
 *
 * The policies match resources by the type tokens of the provider's classes and read
 * plain props: they never run the provider, so a pack built from them needs no IRM
 * credentials. Only types are imported from `@pulumi/policy`, so importing this
 * module does not need the (optional) peer dependency installed.
 */
import type { Policies } from "@pulumi/policy";
import type { PolicyOptions } from "./define";
import {
  type GroupDescriptionRequiredConfig,
  groupDescriptionRequired,
} from "./policies/group-description-required";
import {
  type IdentityIssuerAllowListConfig,
  identityIssuerAllowList,
} from "./policies/identity-issuer-allow-list";
import {
  type NoBroadIdentitySubjectConfig,
  noBroadIdentitySubject,
} from "./policies/no-broad-identity-subject";
import {
  type NoDuplicateRoleBindingConfig,
  noDuplicateRoleBinding,
} from "./policies/no-duplicate-role-binding";
import {
  type NoLongLivedOrReusableInviteConfig,
  noLongLivedOrReusableInvite,
} from "./policies/no-long-lived-or-reusable-invite";
import {
  type NoMatchAllIdentityPatternConfig,
  noMatchAllIdentityPattern,
} from "./policies/no-match-all-identity-pattern";
import {
  type NoPrivilegedDefaultRoleConfig,
  noPrivilegedDefaultRole,
} from "./policies/no-privileged-default-role";
import {
  type NoPrivilegedExternalGroupRoleConfig,
  noPrivilegedExternalGroupRole,
} from "./policies/no-privileged-external-group-role";
import {
  type NoPrivilegedRoleForWorkloadIdentityConfig,
  noPrivilegedRoleForWorkloadIdentity,
} from "./policies/no-privileged-role-for-workload-identity";
import {
  type RootGroupBindingAllowListConfig,
  rootGroupBindingAllowList,
} from "./policies/root-group-binding-allow-list";

export {
  type PolicyFactory,
  type PolicyOptions,
  type ResourcePolicySpec,
  reportNotKnownYet,
  resourcePolicy,
  type StackPolicySpec,
  stackPolicy,
} from "./define";
export { GITHUB_ACTIONS_ISSUER, PACK_NAME, POLICY_NAMES } from "./names";
export { FOREIGN_ISSUERS, type PatternBreadth, PROBES, probePattern } from "./patterns";
export * from "./policies/group-description-required";
export * from "./policies/identity-issuer-allow-list";
export * from "./policies/no-broad-identity-subject";
export * from "./policies/no-duplicate-role-binding";
export * from "./policies/no-long-lived-or-reusable-invite";
export * from "./policies/no-match-all-identity-pattern";
export * from "./policies/no-privileged-default-role";
export * from "./policies/no-privileged-external-group-role";
export * from "./policies/no-privileged-role-for-workload-identity";
export * from "./policies/root-group-binding-allow-list";
export {
  BUILT_IN_ROLE_CAPABILITIES,
  judgeRole,
  PRIVILEGED_CAPABILITIES,
  type RoleJudgement,
  type UnknownRoleLevel,
} from "./privileged";
export { IRM_TYPES, isIrmType, POLICY_RESOURCE_TYPES } from "./resource-types";
export { type Fact, IrmStack, type RoleFacts } from "./stack";
export { isUnknownSentinel, readPath, readString, UNKNOWN } from "./values";

/** Options for each policy of `irmPolicies()`, by factory name. */
export interface IrmPoliciesOptions {
  noPrivilegedRoleForWorkloadIdentity?: PolicyOptions<NoPrivilegedRoleForWorkloadIdentityConfig>;
  rootGroupBindingAllowList?: PolicyOptions<RootGroupBindingAllowListConfig>;
  identityIssuerAllowList?: PolicyOptions<IdentityIssuerAllowListConfig>;
  noBroadIdentitySubject?: PolicyOptions<NoBroadIdentitySubjectConfig>;
  noDuplicateRoleBinding?: Omit<PolicyOptions<NoDuplicateRoleBindingConfig>, "config">;
  groupDescriptionRequired?: PolicyOptions<GroupDescriptionRequiredConfig>;
  noMatchAllIdentityPattern?: Omit<PolicyOptions<NoMatchAllIdentityPatternConfig>, "config">;
  noLongLivedOrReusableInvite?: PolicyOptions<NoLongLivedOrReusableInviteConfig>;
  noPrivilegedDefaultRole?: PolicyOptions<NoPrivilegedDefaultRoleConfig>;
  noPrivilegedExternalGroupRole?: PolicyOptions<NoPrivilegedExternalGroupRoleConfig>;
}

/** Every policy of the pack, as the shipped `irm-guardrails` pack uses them. */
export function irmPolicies(options: IrmPoliciesOptions = {}): Policies {
  return [
    noPrivilegedRoleForWorkloadIdentity(options.noPrivilegedRoleForWorkloadIdentity),
    rootGroupBindingAllowList(options.rootGroupBindingAllowList),
    identityIssuerAllowList(options.identityIssuerAllowList),
    noBroadIdentitySubject(options.noBroadIdentitySubject),
    noDuplicateRoleBinding(options.noDuplicateRoleBinding),
    groupDescriptionRequired(options.groupDescriptionRequired),
    noMatchAllIdentityPattern(options.noMatchAllIdentityPattern),
    noLongLivedOrReusableInvite(options.noLongLivedOrReusableInvite),
    noPrivilegedDefaultRole(options.noPrivilegedDefaultRole),
    noPrivilegedExternalGroupRole(options.noPrivilegedExternalGroupRole),
  ];
}
