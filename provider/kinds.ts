/**
 * The provider's resource types, listed once: each type's name (the last part of its
 * type token, `pulumi-nodejs:dynamic/irm:<type>`), the runtime's export that its
 * provider text calls (`shim.ts`), that text, and the factory of its handler. The
 * runtime's per-type objects (`runtime.ts`) and the policy pack's resource types
 * (`policy/resource-types.ts`) are made from this list, so a new resource is its class,
 * its handler and its checks, plus one line here (and its text in `shim.ts`).
 *
 * The export names and texts are stored in users' state: they never change once
 * released (see the rules in `shim.ts`).
 */
import { accountAssociationHandler } from "./handlers/account-association";
import { externalGroupRoleMappingHandler } from "./handlers/external-group-role-mapping";
import { groupHandler } from "./handlers/group";
import { groupInviteHandler } from "./handlers/group-invite";
import { identityHandler } from "./handlers/identity";
import { identityProviderHandler } from "./handlers/identity-provider";
import { repoHandler } from "./handlers/repo";
import { roleHandler } from "./handlers/role";
import { roleBindingHandler } from "./handlers/role-binding";
import { subscriptionHandler } from "./handlers/subscription";
import {
  accountAssociationProvider,
  externalGroupRoleMappingProvider,
  groupInviteProvider,
  groupProvider,
  identityProvider,
  identityProviderProvider,
  repoProvider,
  roleBindingProvider,
  roleProvider,
  subscriptionProvider,
} from "./shim";

export const PROVIDER_KINDS = [
  { type: "Group", runtimeExport: "group", text: groupProvider, handler: groupHandler },
  { type: "Identity", runtimeExport: "identity", text: identityProvider, handler: identityHandler },
  {
    type: "RoleBinding",
    runtimeExport: "binding",
    text: roleBindingProvider,
    handler: roleBindingHandler,
  },
  { type: "Role", runtimeExport: "role", text: roleProvider, handler: roleHandler },
  {
    type: "IdentityProvider",
    runtimeExport: "idp",
    text: identityProviderProvider,
    handler: identityProviderHandler,
  },
  {
    type: "GroupInvite",
    runtimeExport: "invite",
    text: groupInviteProvider,
    handler: groupInviteHandler,
  },
  {
    type: "AccountAssociation",
    runtimeExport: "assoc",
    text: accountAssociationProvider,
    handler: accountAssociationHandler,
  },
  {
    type: "ExternalGroupRoleMapping",
    runtimeExport: "egrm",
    text: externalGroupRoleMappingProvider,
    handler: externalGroupRoleMappingHandler,
  },
  { type: "Repo", runtimeExport: "repo", text: repoProvider, handler: repoHandler },
  {
    type: "Subscription",
    runtimeExport: "subscription",
    text: subscriptionProvider,
    handler: subscriptionHandler,
  },
] as const;

/** One entry of {@link PROVIDER_KINDS}. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The provider's resource type names (`Group`, `Identity`, ...), in the list's order. */
export const PROVIDER_RESOURCE_TYPES: readonly ProviderKind["type"][] = PROVIDER_KINDS.map(
  (kind) => kind.type,
);
