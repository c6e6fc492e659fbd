/** The `Subscription` resource: a webhook a group's events are delivered to. */
import type * as pulumi from "@pulumi/pulumi";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import { SUBSCRIPTION_SHAPE, type SubscriptionOutputs } from "./shapes/index";

/** Arguments of a {@link Subscription}. */
export interface SubscriptionArgs {
  /** Uid of the group whose events are delivered. Changing it replaces the subscription. */
  readonly parentUid: pulumi.Input<string>;
  /** The https URL events are delivered to. Changing it replaces the subscription. */
  readonly sink: pulumi.Input<string>;
  /**
   * Uid of an existing subscription (directly in `parentUid`) to bring under management
   * instead of creating one. Read only at creation; see docs/provider.md "Adoption".
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const SUBSCRIPTION = resourceKind(SUBSCRIPTION_SHAPE);

/** An event subscription (webhook) of a group. */
export class Subscription extends declaring<SubscriptionOutputs, "createTime">() {
  static override readonly __pulumiType = SUBSCRIPTION.token;

  constructor(name: string, args: SubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(SUBSCRIPTION, name, args, opts));
    uidFromId(this);
  }
}
