/** The shape of `GroupInvite`: its inputs (each replaces it) and its state (the code a secret). */
import { BOOLEAN, CREATE_TIME, echoed, kindShape, STRING, UID_OUTPUT } from "./table";

const INPUTS = {
  groupUid: {
    shape: STRING,
    doc: "Uid of the group the invite grants a role in.",
    required: true,
    replaces: true,
  },
  roleUid: {
    shape: STRING,
    doc: "Uid of the role bound on redemption: built in, or a custom role of the group or an ancestor.",
    required: true,
    replaces: true,
  },
  ttl: {
    shape: STRING,
    doc: 'Lifetime: a duration string such as `"3600s"` (or seconds, as a number); 1 ms to 365 days.',
    required: true,
    replaces: true,
    alsoAccepts: [{ type: "number" }],
  },
  email: {
    shape: STRING,
    doc: 'The only address allowed to redeem it; `""`: anyone who has the code.',
    replaces: true,
    default: "",
  },
  singleUse: {
    shape: BOOLEAN,
    doc: "Whether the code works once only.",
    replaces: true,
    default: false,
  },
} as const;

export const GROUP_INVITE_SHAPE = kindShape({
  type: "GroupInvite",
  doc: "An invite to a group, whose secret code is readable from the stack (as a secret) only.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The invite's uid (its group's uid, `/`, 16 hex)."),
    groupUid: echoed(INPUTS.groupUid, false),
    roleUid: echoed(INPUTS.roleUid, false),
    ttl: echoed(INPUTS.ttl, false),
    email: echoed(INPUTS.email, false),
    singleUse: echoed(INPUTS.singleUse, false),
    expirationTime: {
      shape: STRING,
      doc: "When the code stops working (`createTime + ttl`).",
      setByCreate: true,
      changedByUpdate: false,
    },
    keyId: {
      shape: STRING,
      doc: "Opaque id of the invite's code, naming it without revealing it.",
      setByCreate: true,
      changedByUpdate: false,
    },
    createTime: CREATE_TIME,
    code: {
      shape: STRING,
      doc: 'The code to hand to the invitee, answered only by the create (`""` after `get`).',
      setByCreate: true,
      changedByUpdate: false,
      secret: true,
    },
  },
});

/** Inputs of a GroupInvite after `check`. */
export interface GroupInviteInputs {
  groupUid: string;
  roleUid: string;
  /** Lifetime as a duration string in canonical form (`"3600s"`, `"1.5s"`). */
  ttl: string;
  /** The only address allowed to redeem it; `""` for anyone who has the code. */
  email: string;
  singleUse: boolean;
}

/**
 * Outputs of a GroupInvite, as stored in state (`code` as a secret): only what the
 * invite owns. The API's hydrated copy of the role is left out, as a RoleBinding leaves
 * it out: a custom role's name, description and capabilities change without the invite
 * changing, and a refresh would then report the invite changed.
 */
export interface GroupInviteOutputs extends GroupInviteInputs {
  uid: string;
  /** `createTime + ttl`; an expired invite stays until deleted. */
  expirationTime: string;
  /** Opaque (no published format), unique per invite. */
  keyId: string;
  createTime: string;
  /** The secret code, from the create answer only; `""` when unknown (`get`). */
  code: string;
}
