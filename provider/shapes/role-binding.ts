/** The shape of `RoleBinding`: its inputs and its state. */
import * as t from "./table";

const INPUTS = {
  groupUid: t.CONTAINER("Uid of the group the role applies to (and its descendants)."),
  identityUid: t.REQUIRED_STRING("Uid of the identity that receives the role."),
  roleUid: t.REQUIRED_STRING(
    "Uid of the role: a built-in role (40 hex) or a custom role (`<group uid>/<16 hex>`).",
  ),
  adoptUid: t.ADOPT_UID(
    "Uid of an existing binding in `groupUid` to bring under management; read only at creation.",
  ),
} as const;

export const ROLE_BINDING_SHAPE = t.kindShape({
  type: "RoleBinding",
  runtimeExport: "binding",
  blocksGroupDelete: true,
  doc: "A binding of an identity to a role in a group.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The binding's uid (its group's uid, `/`, 16 hex)."),
    groupUid: t.echoed(INPUTS.groupUid, false),
    identityUid: t.echoed(INPUTS.identityUid, true),
    roleUid: t.echoed(INPUTS.roleUid, true),
    builtInRoleName: {
      shape: t.STRING,
      doc: 'The role\'s name when it is a built-in role (`owner`, `viewer`, ...); `""` for a custom role.',
      setByCreate: true,
      changedByUpdate: true,
    },
    createTime: t.CREATE_TIME,
  },
});

/** Inputs of a RoleBinding after `check`. */
export interface RoleBindingInputs {
  /** Uid of the group the role applies to (and its descendants). Changing it replaces the binding. */
  groupUid: string;
  /** Uid of the identity that receives the role. Updated in place. */
  identityUid: string;
  /**
   * Uid of the role: a built-in role (40 hex, e.g. from `getRole({ name: "viewer" })`) or
   * a custom role (`<group uid>/<16 hex>`). Updated in place.
   */
  roleUid: string;
  /**
   * Uid of an existing binding in `groupUid` to bring under management instead of
   * creating one. Read only at creation.
   */
  adoptUid?: string;
}

/**
 * Outputs of a RoleBinding, as stored in state: only what the binding owns, and
 * nothing that can change under it (no copies of the group's, identity's or a custom
 * role's names and descriptions), so a refresh of an unchanged binding shows no change.
 */
export interface RoleBindingOutputs extends Omit<RoleBindingInputs, "adoptUid"> {
  /** The binding's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /**
   * The role's name when it is a built-in role (`owner`, `editor`, `viewer`, ...), which
   * can never be renamed; `""` for a custom role, whose name may change (look it up with
   * `getRole`). The group's and identity's names are not kept: they can change without
   * the binding changing. Use the `Group` / `Identity` resources, or lookups.
   */
  builtInRoleName: string;
  /** When the binding was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
}
