/** The `Group` resource: a group of the organisation's hierarchy. */
import * as pulumi from "@pulumi/pulumi";
import { groupProvider } from "./shim";

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

/** A group under the root organisation or under another group. */
export class Group extends pulumi.dynamic.Resource {
  /** Type token a policy pack matches on. */
  static readonly __pulumiType = "pulumi-nodejs:dynamic/irm:Group";

  /** True when `obj` is a Group, even one created by another copy of this package. */
  static override isInstance(obj: unknown): obj is Group {
    return (
      typeof obj === "object" &&
      obj !== null &&
      (obj as { __pulumiType?: unknown }).__pulumiType === Group.__pulumiType
    );
  }

  /** The group's uid (its parent's uid, `/`, 16 hex). */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  /** False on newly created groups. */
  declare readonly verified: pulumi.Output<boolean>;
  /** Limits the service applies to the group; may be empty. */
  declare readonly resourceLimits: pulumi.Output<Record<string, number>>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      groupProvider,
      name,
      {
        uid: undefined,
        verified: undefined,
        resourceLimits: undefined,
        createTime: undefined,
        updateTime: undefined,
        ...args,
        description: args.description ?? "",
      },
      opts,
      "irm",
      "Group",
    );
  }
}
