/** The `Role` resource: a custom role of a group, usable in its group and below it. */
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { RoleInputs, RoleOutputs } from "./shapes/index";
import { ROLE_SHAPE } from "./shapes/index";

/** Arguments of a {@link Role}. */
export interface RoleArgs extends ArgsOf<RoleInputs, "description"> {}

const ROLE = resourceKind(ROLE_SHAPE);

/** A custom role: a named set of capabilities, usable in its group and the groups below it. */
export class Role extends declaring<RoleOutputs>(ROLE) {
  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(ROLE, name, args, opts));
    uidFromId(this);
  }
}
