/**
 * Provider methods of `Subscription`: a webhook a group's events are delivered to. The
 * API has no update, so a new sink or group replaces it (create before delete). A create
 * is one POST, a read one GET, a delete one DELETE.
 *
 * A subscription has no name and no createTime, so after a lost create the object it
 * may have made cannot be told from another of the same sink: the create is sent again,
 * and the one lost, if it was made, is left for the user to delete (the error names
 * neither). `irm-pending` refuses such a pending create, saying so (`unrecoverable`),
 * unless `--drop` says it never arrived; with `adoptUid` it reads that one.
 */
import type { IrmClient, Subscription } from "../../sdk/index";
import { checkSubscriptionInputs, parentOf } from "../checks";
import type { SubscriptionInputs, SubscriptionOutputs } from "../shapes/index";
import { type FieldSpec, pick, sameField } from "./common";
import { objectHandler } from "./object-handler";

export type { SubscriptionInputs, SubscriptionOutputs } from "../shapes/index";

const PARENT: FieldSpec<SubscriptionInputs, SubscriptionOutputs> = {
  path: "parentUid",
  fromInputs: (inputs) => inputs.parentUid,
  fromOutputs: (outputs) => outputs.parentUid,
};

export function subscriptionOutputs(subscription: Subscription): SubscriptionOutputs {
  return {
    uid: subscription.uid,
    parentUid: parentOf(subscription.uid) ?? "",
    sink: subscription.sink,
    createTime: "",
  };
}

function subscriptionApi(client: IrmClient) {
  const subscriptions = client.events.subscriptions;
  return {
    get: (uid: string) => subscriptions.get(uid),
    update(uid: string): Promise<Subscription> {
      // Every input replaces: the engine never asks for an update.
      return Promise.reject(
        new Error(
          `Subscription ${uid} cannot be changed (the API has no update); it is replaced instead.`,
        ),
      );
    },
    delete: (uid: string) => subscriptions.delete(uid),
    isGone: (error: unknown, uid: string) => subscriptions.isGone(error, uid),
  };
}

export const subscriptionHandler = objectHandler<
  SubscriptionInputs,
  SubscriptionOutputs,
  Subscription,
  never,
  string
>({
  kind: "event subscription",
  container: PARENT,
  replacing: [sameField("sink")],
  updatable: [],
  check: checkSubscriptionInputs,
  api: subscriptionApi,
  outputs: subscriptionOutputs,
  inputsFrom: (outputs) => pick(outputs, ["parentUid", "sink"]),
  patchBody: () => {
    throw new Error("a subscription has nothing to update");
  },
  create: (client, inputs) =>
    client.events.subscriptions.create(inputs.parentUid, { sink: inputs.sink }),
  // No name and no createTime: nothing can be told to be the lost create's (see above).
  candidates: async () => [],
  unrecoverable:
    "a Subscription cannot be told apart after a lost create (it has no name and no creation time, so one in the service may be another's with the same sink)",
  refuseAdoption: (current, inputs) =>
    current.sink === inputs.sink
      ? undefined
      : `delivers to ${current.sink}, not to the sink declared (${inputs.sink}); a sink cannot change`,
  describe: (inputs) => `event subscription to ${inputs.sink} in ${inputs.parentUid}`,
});
