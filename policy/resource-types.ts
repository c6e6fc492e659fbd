/**
 * Type tokens of the provider's dynamic resources, taken from the resource classes
 * themselves (`Group.__pulumiType`, ...), so the pack can never drift from what the
 * provider registers. Reading a class's static only loads the class module and
 * `@pulumi/pulumi`, not the provider's runtime: the pack still needs no IRM
 * credentials and makes no request.
 */
import { AccountAssociation } from "../provider/account-association";
import { Group } from "../provider/group";
import { GroupInvite } from "../provider/group-invite";
import { Identity } from "../provider/identity";
import { IdentityProvider } from "../provider/identity-provider";
import { Role } from "../provider/role";
import { RoleBinding } from "../provider/role-binding";

/** Type tokens of the provider's dynamic resources (`pulumi-nodejs:dynamic/irm:<Type>`). */
export const IRM_TYPES = {
  group: Group.__pulumiType,
  identity: Identity.__pulumiType,
  roleBinding: RoleBinding.__pulumiType,
  role: Role.__pulumiType,
  identityProvider: IdentityProvider.__pulumiType,
  groupInvite: GroupInvite.__pulumiType,
  accountAssociation: AccountAssociation.__pulumiType,
} as const;

const ALL_TYPES: ReadonlySet<string> = new Set(Object.values(IRM_TYPES));

/** True for a resource of this package; every other resource of a stack is ignored. */
export function isIrmType(type: string): boolean {
  return ALL_TYPES.has(type);
}
