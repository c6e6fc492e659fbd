/** The shape of `Role`: a custom role's inputs and its state. */
import * as t from "./table";

const INPUTS = {
  parentUid: t.CONTAINER("Uid of the group that owns the role."),
  name: t.NAME("at most 128 characters, not a built-in role's"),
  description: t.DESCRIPTION,
  capabilities: {
    shape: t.STRING_ARRAY,
    doc: "At least one capability, by the API's enum value name (`CAP_REPO_LIST`); a set.",
    required: true,
  },
  adoptUid: t.ADOPT_UID(
    "Uid of an existing custom role of `parentUid` to bring under management; read only at creation.",
  ),
} as const;

export const ROLE_SHAPE = t.kindShape({
  type: "Role",
  runtimeExport: "role",
  blocksGroupDelete: true,
  doc: "A custom role of a group: a set of capabilities.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The role's uid, a child of its group (`<group uid>/<16 hex>`)."),
    parentUid: t.echoed(INPUTS.parentUid, false),
    name: t.echoed(INPUTS.name, true),
    description: t.echoed(INPUTS.description, true),
    capabilities: t.echoed(INPUTS.capabilities, true),
    createTime: t.CREATE_TIME,
    updateTime: t.UPDATE_TIME,
  },
});

/** Inputs of a Role after `check`. */
export interface RoleInputs {
  /** Uid of the group that owns the role. */
  parentUid: string;
  /** The role's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Enum value names (`CAP_REPO_LIST`), sorted, without duplicates: the set the role grants. */
  capabilities: string[];
  /** Uid of an existing custom role of `parentUid` to manage instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Role, as stored in state: its inputs and what the API adds. */
export interface RoleOutputs extends Omit<RoleInputs, "adoptUid"> {
  /**
   * The role's uid, a child of its group (`<group uid>/<16 hex>`), for role bindings,
   * invites and default roles.
   */
  uid: string;
  /** When the role was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the role last changed. */
  updateTime: string;
}
