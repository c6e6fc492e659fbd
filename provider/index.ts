/**
 * `pulumi-irm`: Pulumi resources and lookups for the Identity and Registry Management
 * API v2beta1. The provider code that runs in the engine's provider host is the
 * separate entry `pulumi-irm/provider/runtime`; nothing here holds a token.
 */

export {
  AccountAssociation,
  type AccountAssociationArgs,
  type AmazonAccountArgs,
  type AzureTenantArgs,
  type ChainguardBindingsArgs,
  type GitHubInstallationArgs,
  type GitHubInstallationsArgs,
  type GoogleProjectArgs,
} from "./account-association";
export { CONFIG_KEYS, type ProviderSettings } from "./config";
export {
  ExternalGroupRoleMapping,
  type ExternalGroupRoleMappingArgs,
} from "./external-group-role-mapping";
export { Group, type GroupArgs } from "./group";
export { GroupInvite, type GroupInviteArgs } from "./group-invite";
export type {
  AccountAssociationOutputs,
  AssociationBlocks,
} from "./handlers/account-association";
export type { GroupInviteOutputs } from "./handlers/group-invite";
export type {
  CorrelationRule,
  IdentityProviderOidc,
  IdentityProviderOutputs,
} from "./handlers/identity-provider";
export type { RepoAnswer, RepoInputs, RepoOutputs } from "./handlers/repo";
export type { RoleOutputs } from "./handlers/role";
export type { SubscriptionInputs, SubscriptionOutputs } from "./handlers/subscription";
export {
  type AwsIdentityArgs,
  type ClaimMatchArgs,
  Identity,
  type IdentityArgs,
  type StaticKeysArgs,
} from "./identity";
export {
  IdentityProvider,
  type IdentityProviderArgs,
  type IdentityProviderOidcArgs,
} from "./identity-provider";
export {
  type GetAdvisoriesArgs,
  type GetAdvisoriesOutputArgs,
  type GetAdvisoryResult,
  type GetExternalGroupRoleMappingsArgs,
  type GetExternalGroupRoleMappingsOutputArgs,
  type GetGroupArgs,
  type GetGroupOutputArgs,
  type GetGroupResult,
  type GetIdentityArgs,
  type GetIdentityOutputArgs,
  type GetIdentityProviderArgs,
  type GetIdentityProviderOutputArgs,
  type GetIdentityProviderResult,
  type GetIdentityResult,
  type GetRepoArgs,
  type GetRepoOutputArgs,
  type GetRepoResult,
  type GetReposArgs,
  type GetReposOutputArgs,
  type GetRoleArgs,
  type GetRoleOutputArgs,
  type GetRoleResult,
  type GetRolesArgs,
  type GetRolesOutputArgs,
  type GetSubscriptionsArgs,
  type GetSubscriptionsOutputArgs,
  type GetTagArgs,
  type GetTagOutputArgs,
  type GetTagResult,
  type GetTagsArgs,
  type GetTagsOutputArgs,
  getAdvisories,
  getAdvisoriesOutput,
  getExternalGroupRoleMappings,
  getExternalGroupRoleMappingsOutput,
  getGroup,
  getGroupOutput,
  getIdentity,
  getIdentityOutput,
  getIdentityProvider,
  getIdentityProviderOutput,
  getRepo,
  getRepoOutput,
  getRepos,
  getReposOutput,
  getRole,
  getRoleOutput,
  getRoles,
  getRolesOutput,
  getSubscriptions,
  getSubscriptionsOutput,
  getTag,
  getTagOutput,
  getTags,
  getTagsOutput,
  type LookupOptions,
  type OutputArgs,
} from "./lookups";
export { Repo, type RepoArgs } from "./repo";
export { IrmResource, isResourceOfType, typeToken } from "./resource-class";
export { Role, type RoleArgs } from "./role";
export { RoleBinding, type RoleBindingArgs } from "./role-binding";
export { Subscription, type SubscriptionArgs } from "./subscription";
export type {
  AwsIdentity,
  ClaimMatch,
  ExternalGroupRoleMappingOutputs,
  GroupOutputs,
  IdentityKind,
  IdentityOutputs,
  RoleBindingOutputs,
  StaticKeysOutputs,
} from "./types";
