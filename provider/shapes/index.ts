/**
 * One description table per resource type of the provider, and the plain types of its
 * inputs (after `check`) and state: the module below both `checks/` and `handlers/`,
 * which take their types from here, and from which the resource classes take their
 * outputs, defaults and secret outputs. Nothing here imports the rest of the provider.
 *
 * A table (`KindShape`, `table.ts`) reads:
 *
 *     interface KindShape {
 *       type: string;                                  // "Group": last part of the type token
 *       doc: string;
 *       inputs: Record<string, PropertyShape>;         // in the class's argument order
 *       outputs: Record<string, OutputShape>;          // state, in the class's output order
 *     }
 *     interface PropertyShape {                        // an input, or a member of an object
 *       shape: ValueShape; doc: string;
 *       required?: boolean;                            // the program must set it
 *       replaces?: true | "presence";                  // a change replaces the object
 *       default?: unknown; defaultByCheck?: true;      // value when left out (class or check)
 *       secret?: boolean; alsoAccepts?: ValueShape[];  // other types `check` converts
 *     }
 *     interface OutputShape {
 *       shape: ValueShape; doc: string;
 *       setByCreate: boolean; changedByUpdate: boolean;
 *       secret?: boolean; stateOnly?: boolean;         // stateOnly: not declared on the class
 *     }
 *     type ValueShape =
 *       | { type: "string"; enum?: string[] } | { type: "integer" } | { type: "number" }
 *       | { type: "boolean" } | { type: "array"; items: ValueShape }
 *       | { type: "map"; values: ValueShape }          // string keys
 *       | { type: "object"; properties: Record<string, PropertyShape> };
 *
 * `PROVIDER_SHAPES` holds the ten tables by type name; `InputsOf<T>`/`OutputsOf<T>` are
 * the plain types a table describes (a test ties each to the `XInputs`/`XOutputs` here).
 */
import { ACCOUNT_ASSOCIATION_SHAPE } from "./account-association";
import { EXTERNAL_GROUP_ROLE_MAPPING_SHAPE } from "./external-group-role-mapping";
import { GROUP_SHAPE } from "./group";
import { GROUP_INVITE_SHAPE } from "./group-invite";
import { IDENTITY_SHAPE } from "./identity";
import { IDENTITY_PROVIDER_SHAPE } from "./identity-provider";
import { REPO_SHAPE } from "./repo";
import { ROLE_SHAPE } from "./role";
import { ROLE_BINDING_SHAPE } from "./role-binding";
import { SUBSCRIPTION_SHAPE } from "./subscription";

export {
  ACCOUNT_ASSOCIATION_SHAPE,
  type AccountAssociationInputs,
  type AccountAssociationOutputs,
  type AssociationBlocks,
} from "./account-association";
export {
  EXTERNAL_GROUP_ROLE_MAPPING_SHAPE,
  type ExternalGroupRoleMappingInputs,
  type ExternalGroupRoleMappingOutputs,
} from "./external-group-role-mapping";
export { GROUP_SHAPE, type GroupInputs, type GroupOutputs } from "./group";
export {
  GROUP_INVITE_SHAPE,
  type GroupInviteInputs,
  type GroupInviteOutputs,
} from "./group-invite";
export {
  IDENTITY_SHAPE,
  type IdentityInputs,
  type IdentityOutputs,
  type StaticKeysInputs,
  type StaticKeysOutputs,
} from "./identity";
export {
  IDENTITY_PROVIDER_SHAPE,
  type IdentityProviderInputs,
  type IdentityProviderOutputs,
} from "./identity-provider";
export { REPO_SHAPE, type RepoInputs, type RepoOutputs } from "./repo";
export { ROLE_SHAPE, type RoleInputs, type RoleOutputs } from "./role";
export {
  ROLE_BINDING_SHAPE,
  type RoleBindingInputs,
  type RoleBindingOutputs,
} from "./role-binding";
export {
  SUBSCRIPTION_SHAPE,
  type SubscriptionInputs,
  type SubscriptionOutputs,
} from "./subscription";
export {
  classDefaults,
  classOutputs,
  type InputsOf,
  type KindShape,
  type OutputShape,
  type OutputsOf,
  type PropertyShape,
  secretOutputs,
  type ValueOf,
  type ValueShape,
} from "./table";

/** Every resource type's table, by its type name (`Group`), in `PROVIDER_KINDS`' order. */
export const PROVIDER_SHAPES = {
  Group: GROUP_SHAPE,
  Identity: IDENTITY_SHAPE,
  RoleBinding: ROLE_BINDING_SHAPE,
  Role: ROLE_SHAPE,
  IdentityProvider: IDENTITY_PROVIDER_SHAPE,
  GroupInvite: GROUP_INVITE_SHAPE,
  AccountAssociation: ACCOUNT_ASSOCIATION_SHAPE,
  ExternalGroupRoleMapping: EXTERNAL_GROUP_ROLE_MAPPING_SHAPE,
  Repo: REPO_SHAPE,
  Subscription: SUBSCRIPTION_SHAPE,
} as const;

/** A resource type's name, as the tables key them. */
export type ShapeTypeName = keyof typeof PROVIDER_SHAPES;
