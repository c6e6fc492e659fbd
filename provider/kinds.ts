/**
 * The provider's resource types, listed once: each type's table (`shapes/<kind>.ts`)
 * and the factory of its handler. A type's name (the last part of its type token,
 * `pulumi-nodejs:dynamic/irm:<type>`), the runtime's export that its provider text
 * calls and that text (`shim.ts` makes it from the export's name) come from its table.
 * The runtime's per-type objects (`runtime.ts`), the policy pack's resource types
 * (`policy/resource-types.ts`) and the shape tables' test are made from or checked
 * against this list.
 *
 * A new resource type is, in `provider/`: its table (`shapes/<kind>.ts`, plus its line
 * in `shapes/index.ts`), its checks (`checks/<kind>.ts`, exported from `checks/index.ts`),
 * its handler (`handlers/<kind>.ts`), its class (`<kind>.ts`, exported from `index.ts`),
 * one line here and its name in `runtime.ts`'s exports (the compiler and a test insist);
 * a type that blocks a group's delete also gets its line in `handlers/group-contents.ts`
 * (the compiler insists). docs/architecture.md lists the other layers.
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
import { PROVIDER_SHAPES } from "./shapes/index";
import type { KindShape } from "./shapes/table";
import { providerText } from "./shim";

/** One type of the list: its names and text from its table, and its handler. */
function providerKind<const S extends KindShape, H>(shape: S, handler: H) {
  return {
    type: shape.type as S["type"],
    runtimeExport: shape.runtimeExport as S["runtimeExport"],
    text: providerText(shape.runtimeExport),
    shape,
    handler,
  };
}

export const PROVIDER_KINDS = [
  providerKind(PROVIDER_SHAPES.Group, groupHandler),
  providerKind(PROVIDER_SHAPES.Identity, identityHandler),
  providerKind(PROVIDER_SHAPES.RoleBinding, roleBindingHandler),
  providerKind(PROVIDER_SHAPES.Role, roleHandler),
  providerKind(PROVIDER_SHAPES.IdentityProvider, identityProviderHandler),
  providerKind(PROVIDER_SHAPES.GroupInvite, groupInviteHandler),
  providerKind(PROVIDER_SHAPES.AccountAssociation, accountAssociationHandler),
  providerKind(PROVIDER_SHAPES.ExternalGroupRoleMapping, externalGroupRoleMappingHandler),
  providerKind(PROVIDER_SHAPES.Repo, repoHandler),
  providerKind(PROVIDER_SHAPES.Subscription, subscriptionHandler),
] as const;

/** One entry of {@link PROVIDER_KINDS}. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The provider's resource type names (`Group`, `Identity`, ...), in the list's order. */
export const PROVIDER_RESOURCE_TYPES: readonly ProviderKind["type"][] = PROVIDER_KINDS.map(
  (kind) => kind.type,
);
