/**
 * The `ExternalGroupRoleMapping` resource: members of an outside group, signing in
 * through a custom identity provider, get a role in the organisation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import {
  EXTERNAL_GROUP_ROLE_MAPPING_SHAPE,
  type ExternalGroupRoleMappingOutputs,
} from "./shapes/index";

/**
 * Arguments of an {@link ExternalGroupRoleMapping}. A mapping never changes: changing
 * any argument **replaces** it.
 */
export interface ExternalGroupRoleMappingArgs {
  /** Uid of the identity provider whose sign-ins the mapping applies to. */
  readonly identityProviderUid: pulumi.Input<string>;
  /** The provider's own id of the group (a value of its groups claim), at most 256 characters. */
  readonly externalGroupId: pulumi.Input<string>;
  /**
   * Uid of the role granted: built in, or a custom role of the organisation. The caller
   * must hold each of its capabilities.
   */
  readonly roleUid: pulumi.Input<string>;
  /** Uid of the group where the role applies: the identity provider's organisation (root group). */
  readonly scope: pulumi.Input<string>;
  /**
   * Uid of an existing mapping of `identityProviderUid` to bring under management
   * instead of creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const EXTERNAL_GROUP_ROLE_MAPPING = resourceKind(EXTERNAL_GROUP_ROLE_MAPPING_SHAPE);

/** A grant of a role to the members of an outside group of an identity provider. */
export class ExternalGroupRoleMapping extends declaring<ExternalGroupRoleMappingOutputs>() {
  static override readonly __pulumiType = EXTERNAL_GROUP_ROLE_MAPPING.token;

  constructor(
    name: string,
    args: ExternalGroupRoleMappingArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(...registration(EXTERNAL_GROUP_ROLE_MAPPING, name, args, opts));
    uidFromId(this);
  }
}
