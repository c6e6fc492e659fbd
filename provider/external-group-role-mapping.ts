/**
 * The `ExternalGroupRoleMapping` resource: members of an outside group, signing in
 * through a custom identity provider, get a role in the organisation.
 */
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type {
  ExternalGroupRoleMappingInputs,
  ExternalGroupRoleMappingOutputs,
} from "./shapes/index";
import { EXTERNAL_GROUP_ROLE_MAPPING_SHAPE } from "./shapes/index";

/**
 * Arguments of an {@link ExternalGroupRoleMapping}. A mapping never changes: changing
 * any argument **replaces** it.
 */
export interface ExternalGroupRoleMappingArgs extends ArgsOf<ExternalGroupRoleMappingInputs> {}

const EXTERNAL_GROUP_ROLE_MAPPING = resourceKind(EXTERNAL_GROUP_ROLE_MAPPING_SHAPE);

/** A grant of a role to the members of an outside group of an identity provider. */
export class ExternalGroupRoleMapping extends declaring<ExternalGroupRoleMappingOutputs>(
  EXTERNAL_GROUP_ROLE_MAPPING,
) {
  constructor(
    name: string,
    args: ExternalGroupRoleMappingArgs,
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(...registration(EXTERNAL_GROUP_ROLE_MAPPING, name, args, opts));
    uidFromId(this);
  }
}
