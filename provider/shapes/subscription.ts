/** The shape of `Subscription`: a webhook's inputs (each replaces it) and its state. */
import { ADOPT_UID, echoed, kindShape, STRING, UID_OUTPUT } from "./table";

const INPUTS = {
  parentUid: {
    shape: STRING,
    doc: "Uid of the group whose events are delivered.",
    required: true,
    replaces: true,
  },
  sink: {
    shape: STRING,
    doc: "The https URL events are delivered to.",
    required: true,
    replaces: true,
  },
  adoptUid: ADOPT_UID(
    "Uid of an existing subscription (directly in `parentUid`) to bring under management; read only at creation.",
  ),
} as const;

export const SUBSCRIPTION_SHAPE = kindShape({
  type: "Subscription",
  doc: "An event subscription (webhook) of a group.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The subscription's uid (its group's uid, `/`, 16 hex)."),
    parentUid: echoed(INPUTS.parentUid, false),
    sink: echoed(INPUTS.sink, false),
    createTime: {
      shape: STRING,
      doc: 'Not answered by the API: always `""`, kept for the shared lifecycle.',
      setByCreate: true,
      changedByUpdate: false,
      stateOnly: true,
    },
  },
});

/** The inputs of a `Subscription` after its checks. */
export interface SubscriptionInputs {
  /** Uid of the group whose events are delivered. */
  parentUid: string;
  /** The https URL events are delivered to. */
  sink: string;
  /** Uid of an existing subscription of the group to bring under management. */
  adoptUid?: string;
}

/** Outputs of a Subscription, as stored in state. */
export interface SubscriptionOutputs extends Omit<SubscriptionInputs, "adoptUid"> {
  /** The subscription's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** Not answered by the API: always `""`, kept for the shared lifecycle. */
  createTime: string;
}
