/**
 * `pulumi-irm`: Pulumi resources and lookups for the Identity and Registry Management
 * API v2beta1. The provider code that runs in the engine's provider host is the
 * separate entry `pulumi-irm/provider/runtime`; nothing here holds a token.
 */
export { CONFIG_KEYS, type ProviderSettings } from "./config";
export { Group, type GroupArgs } from "./group";
export { type ClaimMatchArgs, Identity, type IdentityArgs } from "./identity";
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
export { RoleBinding, type RoleBindingArgs } from "./role-binding";
export type {
  ClaimMatch,
  GroupOutputs,
  IdentityOutputs,
  RoleBindingOutputs,
} from "./types";
