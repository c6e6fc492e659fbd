/** The shape of `Role`: a custom role's inputs and its state. */
import {
  ADOPT_UID,
  CREATE_TIME,
  echoed,
  kindShape,
  STRING,
  STRING_ARRAY,
  UID_OUTPUT,
  UPDATE_TIME,
} from "./table";

const INPUTS = {
  parentUid: {
    shape: STRING,
    doc: "Uid of the group that owns the role.",
    required: true,
    replaces: true,
  },
  name: {
    shape: STRING,
    doc: "Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters, not a built-in role's.",
    required: true,
  },
  description: { shape: STRING, doc: "Free text, at most 1024 characters.", default: "" },
  capabilities: {
    shape: STRING_ARRAY,
    doc: "At least one capability, by the API's enum value name (`CAP_REPO_LIST`); a set.",
    required: true,
  },
  adoptUid: ADOPT_UID(
    "Uid of an existing custom role of `parentUid` to bring under management; read only at creation.",
  ),
} as const;

export const ROLE_SHAPE = kindShape({
  type: "Role",
  doc: "A custom role of a group: a set of capabilities.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The role's uid, a child of its group (`<group uid>/<16 hex>`)."),
    parentUid: echoed(INPUTS.parentUid, false),
    name: echoed(INPUTS.name, true),
    description: echoed(INPUTS.description, true),
    capabilities: echoed(INPUTS.capabilities, true),
    createTime: CREATE_TIME,
    updateTime: UPDATE_TIME,
  },
});

/** Inputs of a Role after `check`. */
export interface RoleInputs {
  parentUid: string;
  name: string;
  description: string;
  /** Enum value names (`CAP_REPO_LIST`), sorted, without duplicates: the set the role grants. */
  capabilities: string[];
  /** Uid of an existing custom role of `parentUid` to manage instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Role, as stored in state: its inputs and what the API adds. */
export interface RoleOutputs extends Omit<RoleInputs, "adoptUid"> {
  uid: string;
  createTime: string;
  updateTime: string;
}
