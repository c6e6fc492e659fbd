/** The shape of `Subscription`: a webhook's inputs (each replaces it) and its state. */
import * as t from "./table";

const INPUTS = {
  parentUid: t.CONTAINER("Uid of the group whose events are delivered."),
  sink: t.CONTAINER("The https URL events are delivered to."),
  adoptUid: t.ADOPT_UID(
    "Uid of an existing subscription (directly in `parentUid`) to bring under management; read only at creation.",
  ),
} as const;

export const SUBSCRIPTION_SHAPE = t.kindShape({
  type: "Subscription",
  runtimeExport: "subscription",
  // The API refuses a group's delete while it has an event subscription.
  blocksGroupDelete: true,
  doc: "An event subscription (webhook) of a group.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The subscription's uid (its group's uid, `/`, 16 hex)."),
    parentUid: t.echoed(INPUTS.parentUid, false),
    sink: t.echoed(INPUTS.sink, false),
    createTime: {
      shape: t.STRING,
      doc: 'Not answered by the API: always `""`, kept for the shared lifecycle.',
      setByCreate: true,
      changedByUpdate: false,
      stateOnly: true,
    },
  },
});

/** The inputs of a `Subscription` after its checks. */
export interface SubscriptionInputs {
  /** Uid of the group whose events are delivered. Changing it replaces the subscription. */
  parentUid: string;
  /** The https URL events are delivered to. Changing it replaces the subscription. */
  sink: string;
  /**
   * Uid of an existing subscription (directly in `parentUid`) to bring under management
   * instead of creating one. Read only at creation; see docs/provider.md "Adoption".
   */
  adoptUid?: string;
}

/** Outputs of a Subscription, as stored in state. */
export interface SubscriptionOutputs extends Omit<SubscriptionInputs, "adoptUid"> {
  /** The subscription's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** Not answered by the API: always `""`, kept for the shared lifecycle. */
  createTime: string;
}
