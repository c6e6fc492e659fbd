/** The `GroupInvite` resource: a code that grants a role in a group to whoever redeems it. */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { GroupInviteOutputs } from "./shapes/index";
import { GROUP_INVITE_SHAPE } from "./shapes/index";

/**
 * Arguments of a {@link GroupInvite}. An invite never changes: changing any argument
 * **replaces** it (a new invite with a new code).
 */
export interface GroupInviteArgs {
  /** Uid of the group the invite grants a role in. */
  readonly groupUid: pulumi.Input<string>;
  /**
   * Uid of the role bound on redemption: built in, or a custom role of the group or an
   * ancestor. The caller must hold each of its capabilities.
   */
  readonly roleUid: pulumi.Input<string>;
  /** Lifetime: seconds, or a duration string such as `"3600s"`; 1 ms to 365 days. */
  readonly ttl: pulumi.Input<number | string>;
  /** The only address allowed to redeem it; defaults to `""` (anyone who has the code). */
  readonly email?: pulumi.Input<string>;
  /** Whether the code works once only; defaults to `false`. */
  readonly singleUse?: pulumi.Input<boolean>;
}

const GROUP_INVITE = resourceKind(GROUP_INVITE_SHAPE);

/** An invite to a group, whose secret code is readable from the stack (as a secret) only. */
export class GroupInvite extends declaring<GroupInviteOutputs>(GROUP_INVITE) {
  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(GROUP_INVITE, name, args, opts));
    uidFromId(this);
  }
}
