/** The `RoleBinding` resource: grants a role to an identity inside a group. */
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { RoleBindingInputs, RoleBindingOutputs } from "./shapes/index";
import { ROLE_BINDING_SHAPE } from "./shapes/index";

/** Arguments of a {@link RoleBinding}. */
export interface RoleBindingArgs extends ArgsOf<RoleBindingInputs> {}

const ROLE_BINDING = resourceKind(ROLE_BINDING_SHAPE);

/** A binding of an identity to a role in a group. */
export class RoleBinding extends declaring<RoleBindingOutputs>(ROLE_BINDING) {
  constructor(name: string, args: RoleBindingArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ROLE_BINDING, name, args, opts));
    uidFromId(this);
  }
}
