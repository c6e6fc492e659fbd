/**
 * Event subscriptions: webhooks a group's events are delivered to.
 * `/events/v2beta1/subscriptions` (HEAD's SubscriptionsService: Get, Create, List, Delete;
 * no update) and the v1 calls the platform's tools make, `/events/v1/subscriptions`
 * (Create under `parent_id`, List with `id` and `uidp.*`, Delete by `id`), answered from
 * the same records. Capabilities `CAP_EVENTS_SUBSCRIPTION_{CREATE,LIST,DELETE}`.
 */
import { invalidArgument } from "../errors";
import type { SubscriptionRecord } from "../model";
import { type ApiRequest, type JsonObject, ok } from "../requests";
import * as kit from "./kit";
import { v1List } from "./v1";
import { writableCollection } from "./writable";

/** The longest sink URL accepted. */
export const MAX_SINK_LENGTH = 2048;

/** `sink`: "the routable HTTPS URL to which events are delivered. Must use the https scheme." */
export function requireSink(value: unknown, field = "sink"): string {
  if (value === undefined || value === null || value === "") {
    throw invalidArgument(field, "is required");
  }
  if (typeof value !== "string") throw invalidArgument(field, "must be a string");
  if (value.length > MAX_SINK_LENGTH) {
    throw invalidArgument(field, `must be at most ${MAX_SINK_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(field, "must be an absolute https URL");
  }
  if (url.protocol !== "https:" || url.hostname === "") {
    throw invalidArgument(field, "must be an https URL (the https scheme and a host)");
  }
  return value;
}

export function subscriptionOut(subscription: SubscriptionRecord): JsonObject {
  return { uid: subscription.uid, sink: subscription.sink };
}

export const subscriptions = writableCollection<SubscriptionRecord, { sink: string }>({
  name: "subscriptions",
  out: (_ctx, subscription) => subscriptionOut(subscription),
  list: { sortName: (_ctx, subscription) => subscription.sink },
  create: {
    parentHint: "the parent group uid belongs in the path",
    body: (_ctx, body) => ({ sink: requireSink(body.sink) }),
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(parentUid, (candidate) => ctx.state.subscriptions.has(candidate)),
      sink: draft.sink,
      createTime: now,
      updateTime: now,
    }),
  },
  delete: {},
});

/** The v2beta1 request a v1 call stands for: same caller, body and query. */
function asV2(request: ApiRequest, method: string, rest?: string): ApiRequest {
  return {
    ...request,
    method,
    path: `/events/v2beta1/subscriptions${rest ? `/${rest}` : ""}`,
  };
}

const v1ListSubscriptions = v1List({
  handler: subscriptions,
  kind: "subscriptions",
  passes: { uidp: true },
  shape: (_ctx, subscription) => ({ id: subscription.uid, sink: subscription.sink }),
});

/**
 * `/events/v1/subscriptions`: List (GET, no uid), Create (`POST .../<parent_id>`, the
 * v1 `Subscription` as body, answered as `{ id, sink }`), Delete (`DELETE .../<id>`).
 */
export const v1Subscriptions: kit.CollectionHandler = async (ctx, request, rest) => {
  switch (request.method) {
    case "GET":
      return v1ListSubscriptions(ctx, request, rest);
    case "POST": {
      const answer = await subscriptions(ctx, asV2(request, "POST", rest), rest);
      const made = answer.body as JsonObject;
      return ok({ id: made.uid, sink: made.sink });
    }
    case "DELETE":
      if (rest === undefined) throw kit.unsupported(request);
      return subscriptions(ctx, asV2(request, "DELETE", rest), rest);
    default:
      throw kit.unsupported(request);
  }
};
