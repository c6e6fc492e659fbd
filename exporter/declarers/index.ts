/**
 * One declarer per kind, each in its own module: how the program declares that kind
 * (select, name, refer, declare; see `Declarer` in build.ts).
 */
import type { KindName } from "../kinds";
import { accountAssociationDeclarer } from "./account-association";
import type { Declarer } from "./build";
import { externalGroupRoleMappingDeclarer } from "./external-group-role-mapping";
import { groupDeclarer } from "./group";
import { groupInviteDeclarer } from "./group-invite";
import { identityDeclarer } from "./identity";
import { identityProviderDeclarer } from "./identity-provider";
import { repoDeclarer } from "./repo";
import { roleDeclarer } from "./role";
import { roleBindingDeclarer } from "./role-binding";
import { subscriptionDeclarer } from "./subscription";

export { Build } from "./build";

/** The declarer of each kind; `KINDS` (kinds.ts) gives their order. */
export const DECLARERS: Record<KindName, Declarer<{ uid: string }, unknown>> = {
  Group: groupDeclarer,
  Role: roleDeclarer,
  Identity: identityDeclarer,
  IdentityProvider: identityProviderDeclarer,
  ExternalGroupRoleMapping: externalGroupRoleMappingDeclarer,
  AccountAssociation: accountAssociationDeclarer,
  RoleBinding: roleBindingDeclarer,
  Repo: repoDeclarer,
  Subscription: subscriptionDeclarer,
  GroupInvite: groupInviteDeclarer,
};
