/** The `RoleBinding` resource: grants a role to an identity inside a group. */
import type * as pulumi from "@pulumi/pulumi";
import { IrmResource, registration, resourceKind, uidFromId } from "./resource-class";
import { ROLE_BINDING_SHAPE } from "./shapes/index";

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
export class RoleBinding extends IrmResource {
  static override readonly __pulumiType = ROLE_BINDING.token;

  /** The binding's uid (its group's uid, `/`, 16 hex). */
  declare readonly uid: pulumi.Output<string>;
  /** Uid of the group the role applies to. */
  declare readonly groupUid: pulumi.Output<string>;
  /** Uid of the identity that holds the role. */
  declare readonly identityUid: pulumi.Output<string>;
  /** Uid of the role (a built-in role's 40 hex, or a custom role's `<group uid>/<16 hex>`). */
  declare readonly roleUid: pulumi.Output<string>;
  /**
   * The role's name when it is a built-in role (`owner`, `editor`, `viewer`, ...),
   * which can never be renamed; `""` for a custom role, whose name may change (look it
   * up with `getRole`). The group's and identity's names are not kept: they can change
   * without the binding changing. Use the `Group` / `Identity` resources, or lookups.
   */
  declare readonly builtInRoleName: pulumi.Output<string>;
  /** When the binding was created (RFC 3339, milliseconds, `Z`). */
  declare readonly createTime: pulumi.Output<string>;

  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ROLE_BINDING, name, args, opts));
    uidFromId(this);
  }
}
