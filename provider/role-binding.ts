/** The `RoleBinding` resource: grants a role to an identity inside a group. */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import { ROLE_BINDING_SHAPE, type RoleBindingOutputs } from "./shapes/index";

/** Arguments of a {@link RoleBinding}. */
export interface RoleBindingArgs {
  /** Uid of the group the role applies to (and its descendants). Changing it replaces the binding. */
  readonly groupUid: pulumi.Input<string>;
  /** Uid of the identity that receives the role. Updated in place. */
  readonly identityUid: pulumi.Input<string>;
  /** Uid of the role: a built-in role (40 hex, e.g. from `getRole({ name: "viewer" })`) or a custom role (`<group uid>/<16 hex>`). Updated in place. */
  readonly roleUid: pulumi.Input<string>;
  /**
   * Uid of an existing binding in `groupUid` to bring under management instead of
   * creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const ROLE_BINDING = resourceKind(ROLE_BINDING_SHAPE);

/** A binding of an identity to a role in a group. */
export class RoleBinding extends declaring<RoleBindingOutputs>() {
  static override readonly __pulumiType = ROLE_BINDING.token;

  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ROLE_BINDING, name, args, opts));
    uidFromId(this);
  }
}
