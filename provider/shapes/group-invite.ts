/** The shape of `GroupInvite`: its inputs (each replaces it) and its state (the code a secret). */
import * as t from "./table";

const INPUTS = {
  groupUid: t.CONTAINER("Uid of the group the invite grants a role in."),
  roleUid: t.CONTAINER(
    "Uid of the role bound on redemption: built in, or a custom role of the group or an ancestor.",
  ),
  ttl: {
    shape: t.STRING,
    doc: 'Lifetime: a duration string such as `"3600s"` (or seconds, as a number); 1 ms to 365 days.',
    required: true,
    replaces: true,
    alsoAccepts: [{ type: "number" }],
  },
  email: {
    shape: t.STRING,
    doc: 'The only address allowed to redeem it; `""`: anyone who has the code.',
    replaces: true,
    default: "",
  },
  singleUse: {
    shape: t.BOOLEAN,
    doc: "Whether the code works once only.",
    replaces: true,
    default: false,
  },
} as const;

export const GROUP_INVITE_SHAPE = t.kindShape({
  type: "GroupInvite",
  runtimeExport: "invite",
  blocksGroupDelete: true,
  doc: "An invite to a group, whose secret code is readable from the stack (as a secret) only.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The invite's uid (its group's uid, `/`, 16 hex)."),
    groupUid: t.echoed(INPUTS.groupUid, false),
    roleUid: t.echoed(INPUTS.roleUid, false),
    ttl: t.echoed(INPUTS.ttl, false),
    email: t.echoed(INPUTS.email, false),
    singleUse: t.echoed(INPUTS.singleUse, false),
    expirationTime: {
      shape: t.STRING,
      doc: "When the code stops working (`createTime + ttl`).",
      setByCreate: true,
      changedByUpdate: false,
    },
    keyId: {
      shape: t.STRING,
      doc: "Opaque id of the invite's code, naming it without revealing it.",
      setByCreate: true,
      changedByUpdate: false,
    },
    createTime: t.CREATE_TIME,
    code: {
      shape: t.STRING,
      doc: 'The code to hand to the invitee, answered only by the create (`""` after `get`).',
      setByCreate: true,
      changedByUpdate: false,
      secret: true,
    },
  },
});

/** Inputs of a GroupInvite after `check`. */
export interface GroupInviteInputs {
  /** Uid of the group the invite grants a role in. */
  groupUid: string;
  /**
   * Uid of the role bound on redemption. The role's name and capabilities are not kept
   * (they change without the invite changing): look them up with `getRole`.
   */
  roleUid: string;
  /** Lifetime as a duration string in canonical form (`"3600s"`, `"1.5s"`). */
  ttl: string;
  /** The only address allowed to redeem it; `""` for anyone who has the code. */
  email: string;
  /** Whether the code works once only. */
  singleUse: boolean;
}

/**
 * Outputs of a GroupInvite, as stored in state (`code` as a secret): only what the
 * invite owns. The API's hydrated copy of the role is left out, as a RoleBinding leaves
 * it out: a custom role's name, description and capabilities change without the invite
 * changing, and a refresh would then report the invite changed.
 */
export interface GroupInviteOutputs extends GroupInviteInputs {
  /** The invite's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /**
   * When the code stops working (`createTime + ttl`). An expired invite stays (and in
   * the stack) until deleted; replace the invite to get a new code.
   */
  expirationTime: string;
  /** Opaque id of the invite's code, naming it without revealing it (no published format). */
  keyId: string;
  /** When the invite was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /**
   * The code to hand to the invitee: a secret, answered by the API only when the invite
   * was created (`""` for an invite read with `get`).
   */
  code: string;
}
