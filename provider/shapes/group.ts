/** The shape of `Group`: its inputs and its state. */
import {
  ADOPT_UID,
  CREATE_TIME,
  echoed,
  INTEGER,
  kindShape,
  STRING,
  UID_OUTPUT,
  UPDATE_TIME,
} from "./table";

const INPUTS = {
  parentUid: {
    shape: STRING,
    doc: "Uid of the parent: the root organisation or another group.",
    required: true,
    replaces: true,
  },
  name: {
    shape: STRING,
    doc: "Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters.",
    required: true,
  },
  description: { shape: STRING, doc: "Free text, at most 1024 characters.", default: "" },
  adoptUid: ADOPT_UID(
    "Uid of an existing group (a direct child of `parentUid`) to bring under management instead of creating one; read only at creation.",
  ),
} as const;

export const GROUP_SHAPE = kindShape({
  type: "Group",
  doc: "A group under the root organisation or under another group.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The group's uid (its parent's uid, `/`, 16 hex)."),
    parentUid: echoed(INPUTS.parentUid, false),
    name: echoed(INPUTS.name, true),
    description: echoed(INPUTS.description, true),
    verified: {
      shape: { type: "boolean" },
      doc: "False on newly created groups.",
      setByCreate: true,
      changedByUpdate: false,
    },
    resourceLimits: {
      shape: { type: "map", values: INTEGER },
      doc: "Limits the service applies to the group (integer counters by name); may be empty.",
      setByCreate: true,
      changedByUpdate: false,
    },
    createTime: CREATE_TIME,
    updateTime: UPDATE_TIME,
  },
});

/** Inputs of a Group after `check`. */
export interface GroupInputs {
  /** Uid of the parent: the root organisation or another group. */
  parentUid: string;
  /** The group's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Uid of an existing group to bring under management instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Group, as stored in state: its inputs and what the API adds. */
export interface GroupOutputs extends Omit<GroupInputs, "adoptUid"> {
  /** The group's uid (its parent's uid, `/`, 16 hex). */
  uid: string;
  /** False on newly created groups. */
  verified: boolean;
  /** Limits the service applies to the group: integer counters by name; may be empty. */
  resourceLimits: Record<string, number>;
  /** When the group was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the group last changed. */
  updateTime: string;
}
