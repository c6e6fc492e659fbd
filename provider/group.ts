/** The `Group` resource: a group of the organisation's hierarchy. */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { GroupOutputs } from "./shapes/index";
import { GROUP_SHAPE } from "./shapes/index";

/** Arguments of a {@link Group}. */
export interface GroupArgs {
  /** Uid of the parent: the root organisation or another group. Changing it replaces the group. */
  readonly parentUid: pulumi.Input<string>;
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters. Updated in place. */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /**
   * Uid of an existing group (a direct child of `parentUid`) to bring under management
   * instead of creating one. Read only at creation; see docs/provider.md "Adoption".
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const GROUP = resourceKind(GROUP_SHAPE);

/** A group under the root organisation or under another group. */
export class Group extends declaring<GroupOutputs>(GROUP) {
  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(GROUP, name, args, opts));
    uidFromId(this);
  }
}
