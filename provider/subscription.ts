/** The `Subscription` resource: a webhook a group's events are delivered to. */
import type * as pulumi from "@pulumi/pulumi";
import { type ArgsOf, declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { SubscriptionInputs, SubscriptionOutputs } from "./shapes/index";
import { SUBSCRIPTION_SHAPE } from "./shapes/index";

/** Arguments of a {@link Subscription}. */
export interface SubscriptionArgs extends ArgsOf<SubscriptionInputs> {}

const SUBSCRIPTION = resourceKind(SUBSCRIPTION_SHAPE);

/** An event subscription (webhook) of a group. */
export class Subscription extends declaring<SubscriptionOutputs, "createTime">(SUBSCRIPTION) {
  constructor(name: string, args: SubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(SUBSCRIPTION, name, args, opts));
    uidFromId(this);
  }
}
