/** The `GroupInvite` resource: a code that grants a role in a group to whoever redeems it. */
import type * as pulumi from "@pulumi/pulumi";
import { IrmResource, registration, resourceKind, uidFromId } from "./resource-class";
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
export class GroupInvite extends IrmResource {
  static override readonly __pulumiType = GROUP_INVITE.token;

  /** The invite's uid (its group's uid, `/`, 16 hex). */
  declare readonly uid: pulumi.Output<string>;
  /** Uid of the group the invite grants a role in. */
  declare readonly groupUid: pulumi.Output<string>;
  /**
   * Uid of the role bound on redemption. The role's name and capabilities are not kept
   * (they change without the invite changing): look them up with `getRole`.
   */
  declare readonly roleUid: pulumi.Output<string>;
  /** The lifetime, as a duration string (`"3600s"`). */
  declare readonly ttl: pulumi.Output<string>;
  /** The only address allowed to redeem it; `""` for anyone. */
  declare readonly email: pulumi.Output<string>;
  /** Whether the code works once only. */
  declare readonly singleUse: pulumi.Output<boolean>;
  /**
   * When the code stops working. An expired invite stays (and in the stack) until
   * deleted; replace the invite to get a new code.
   */
  declare readonly expirationTime: pulumi.Output<string>;
  /** Opaque id of the invite's code, naming it without revealing it. */
  declare readonly keyId: pulumi.Output<string>;
  /** When the invite was created (RFC 3339, milliseconds, `Z`). */
  declare readonly createTime: pulumi.Output<string>;
  /**
   * The code to hand to the invitee: a secret, answered by the API only when the invite
   * was created (`""` for an invite read with `get`).
   */
  declare readonly code: pulumi.Output<string>;

  constructor(name: string, args: GroupInviteArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(GROUP_INVITE, name, args, opts));
    uidFromId(this);
  }
}
