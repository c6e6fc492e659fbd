/** The `Group` resource: a group of the organisation's hierarchy. */
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { GroupInputs, GroupOutputs } from "./shapes/index";
import { GROUP_SHAPE } from "./shapes/index";

/** Arguments of a {@link Group}. */
export interface GroupArgs extends ArgsOf<GroupInputs, "description"> {}

const GROUP = resourceKind(GROUP_SHAPE);

/** A group under the root organisation or under another group. */
export class Group extends declaring<GroupOutputs>(GROUP) {
  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(GROUP, name, args, opts));
    uidFromId(this);
  }
}
