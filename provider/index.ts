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
export { Group, type GroupArgs } from "./group";
export { GroupInvite, type GroupInviteArgs } from "./group-invite";
export type {
  AccountAssociationOutputs,
  AssociationBlocks,
} from "./handlers/account-association";
export type { GroupInviteOutputs, GroupInviteRole } from "./handlers/group-invite";
export type {
  CorrelationRule,
  IdentityProviderOidc,
  IdentityProviderOutputs,
} from "./handlers/identity-provider";
export type { RoleOutputs } from "./handlers/role";
export { type ClaimMatchArgs, Identity, type IdentityArgs } from "./identity";
export {
  IdentityProvider,
  type IdentityProviderArgs,
  type IdentityProviderOidcArgs,
} from "./identity-provider";
export {
  type GetGroupArgs,
  type GetGroupResult,
  type GetRepoArgs,
  type GetRepoOutputArgs,
  type GetRepoResult,
  type GetReposArgs,
  type GetRoleArgs,
  type GetRoleOutputArgs,
  type GetRoleResult,
  type GetRolesArgs,
  getGroup,
  getRepo,
  getRepoOutput,
  getRepos,
  getRole,
  getRoleOutput,
  getRoles,
  type LookupOptions,
} from "./lookups";
export { Role, type RoleArgs } from "./role";
export { RoleBinding, type RoleBindingArgs } from "./role-binding";
export type {
  ClaimMatch,
  GroupOutputs,
  IdentityOutputs,
  RoleBindingOutputs,
} from "./types";
