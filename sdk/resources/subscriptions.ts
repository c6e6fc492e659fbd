/**
 * `/events/v2beta1/subscriptions`: event subscriptions, webhooks a group's events are
 * delivered to (HEAD's SubscriptionsService). A subscription never changes: delete it
 * and create another.
 */
import { CreatableCollection } from "../core/collection";
import type { ApiRequester } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";

export interface Subscription {
  /** `<group uid>/<16 hex>`. */
  uid: string;
  /** The https URL events are delivered to. */
  sink: string;
}

export interface SubscriptionCreate {
  /** An https URL (the service refuses any other scheme). */
  sink: string;
}

/** The longest sink the SDK accepts in an answer. */
const MAX_SINK_CHARS = 8192;

/** A subscription as answered: `uid` and `sink`, both strings, the sink bounded. */
export function decodeSubscription(raw: unknown, at = "subscription"): Subscription {
  const r = ShapeReader.of(raw, at);
  const subscription = { uid: r.string("uid"), sink: r.string("sink") };
  if (subscription.sink.length > MAX_SINK_CHARS) {
    throw new ShapeError(`${at}.sink`, `longer than ${MAX_SINK_CHARS} characters`);
  }
  return subscription;
}

/** `/events/v2beta1/subscriptions`: list, get, create under a group, delete. */
export class Subscriptions extends CreatableCollection<Subscription, SubscriptionCreate> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/events/v2beta1/subscriptions",
      listKey: "subscriptions",
      noun: "subscription",
      decode: decodeSubscription,
    });
  }
}
