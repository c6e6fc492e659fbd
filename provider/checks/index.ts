/**
 * Every input check of the provider, and the rules they are built from: the one module
 * the handlers' `check`, the lookups and the exporter import them from. Each resource's
 * checks are one module here (`checks/<resource>.ts`), written over the one
 * {@link Checker} of `checker.ts`, which collects failures; every failure names the
 * property and the rule it broke, so `pulumi preview` can point at the line, and a
 * value not known yet in a preview passes.
 */
export { ASSOCIATION_BLOCKS, checkAccountAssociationInputs } from "./account-association";
export {
  CHILD_UID_PATTERN,
  GROUP_UID_PATTERN,
  isRecord,
  isUnknown,
  MAX_LENGTH,
  MAX_PATTERN_COST,
  onTopLevelInputs,
  parentOf,
  patternCost,
  quoted,
  ROLE_SHAPE,
  ROLE_UID_PATTERN,
  UNKNOWN_VALUE,
} from "./checker";
export { checkExternalGroupRoleMappingInputs } from "./external-group-role-mapping";
export { checkGroupInputs } from "./group";
export { canonicalDuration, checkGroupInviteInputs } from "./group-invite";
export { checkIdentityInputs } from "./identity";
export { checkIdentityProviderInputs } from "./identity-provider";
export { checkRepoInputs, MAX_README_LENGTH, type RepoInputs } from "./repo";
export {
  BUILT_IN_ROLE_NAMES,
  capabilityProblem,
  capabilitySet,
  checkRoleInputs,
} from "./role";
export { checkRoleBindingInputs } from "./role-binding";
export { checkSubscriptionInputs, MAX_SINK_LENGTH, type SubscriptionInputs } from "./subscription";
