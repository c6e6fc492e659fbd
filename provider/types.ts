/**
 * Plain (already resolved) shapes of what the engine hands the provider and what it
 * stores in state, for the modules and tests that import them from here. They are
 * defined beside each type's table in `shapes/`; the resource classes wrap the input
 * shapes in `pulumi.Input`.
 */

/*
 * The members of an identity's kind have the SDK's shapes (the API's JSON form, only
 * the members that are set), so the provider takes them from there rather than keeping
 * copies that could drift apart.
 */
export {
  type AwsIdentity,
  type ClaimMatch,
  IDENTITY_KINDS,
  type IdentityKind,
} from "../sdk/index";
export type {
  ExternalGroupRoleMappingInputs,
  ExternalGroupRoleMappingOutputs,
  GroupInputs,
  GroupOutputs,
  IdentityInputs,
  IdentityOutputs,
  RoleBindingInputs,
  RoleBindingOutputs,
  StaticKeysInputs,
  StaticKeysOutputs,
} from "./shapes/index";
