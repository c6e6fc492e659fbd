/**
 * The provider text of each resource type, by the name `provider/shim.ts` exported it
 * under before the texts were made from the types' runtime exports (`providerText`).
 */
import { providerText } from "../../provider/shim";

export const groupProvider = providerText("group");
export const identityProvider = providerText("identity");
export const roleBindingProvider = providerText("binding");
export const roleProvider = providerText("role");
export const identityProviderProvider = providerText("idp");
export const groupInviteProvider = providerText("invite");
export const accountAssociationProvider = providerText("assoc");
export const externalGroupRoleMappingProvider = providerText("egrm");
export const repoProvider = providerText("repo");
export const subscriptionProvider = providerText("subscription");
