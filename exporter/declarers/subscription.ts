/** Event subscriptions, named after their sink's host. */
import type { Subscription } from "../../sdk/index";
import type { SubscriptionDeclaration } from "../declarations";
import { wordsOf } from "../names";
import type { Declarer } from "./build";
import { compareText, parentUidOf } from "./values";

/** The words of a sink's host (`hooks.acme.example` → hooks, acme, example); none if unparsable. */
function sinkWords(sink: string): string[] {
  try {
    return wordsOf(new URL(sink).hostname);
  } catch {
    return [];
  }
}

/** A subscription has no name: `<sink host>-events`, qualified by its groups where it repeats. */
const subscriptionName = (s: Subscription) => ({
  uid: s.uid,
  name: [...sinkWords(s.sink), "events"].join(" "),
});

export const subscriptionDeclarer: Declarer<Subscription, SubscriptionDeclaration> = {
  select: (build) =>
    [...build.live.subscriptions].sort(
      (a, b) =>
        build.groupRank(parentUidOf(a.uid)) - build.groupRank(parentUidOf(b.uid)) ||
        compareText(a.sink, b.sink) ||
        compareText(a.uid, b.uid),
    ),
  name: (build, subscriptions) =>
    build.namesOf(subscriptions.map(subscriptionName), (s) => parentUidOf(s.uid), "subscription"),
  refersTo: (subscription) => [parentUidOf(subscription.uid)],
  declare: (build, subscriptions) =>
    subscriptions.map((subscription) => ({
      resourceName: build.nameOf("Subscription", subscription.uid)!.resourceName,
      uid: subscription.uid,
      parent: build.groupExpression(parentUidOf(subscription.uid)),
      sink: subscription.sink,
    })),
};
