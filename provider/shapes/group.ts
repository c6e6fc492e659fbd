/** The shape of `Group`: its inputs and its state. */
import * as t from "./table";

const INPUTS = {
  parentUid: t.CONTAINER("Uid of the parent: the root organisation or another group."),
  name: t.NAME(),
  description: t.DESCRIPTION,
  adoptUid: t.ADOPT_UID(
    "Uid of an existing group (a direct child of `parentUid`) to bring under management instead of creating one; read only at creation.",
  ),
} as const;

export const GROUP_SHAPE = t.kindShape({
  type: "Group",
  runtimeExport: "group",
  blocksGroupDelete: true,
  doc: "A group under the root organisation or under another group.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The group's uid (its parent's uid, `/`, 16 hex)."),
    parentUid: t.echoed(INPUTS.parentUid, false),
    name: t.echoed(INPUTS.name, true),
    description: t.echoed(INPUTS.description, true),
    verified: {
      shape: { type: "boolean" },
      doc: "False on newly created groups.",
      setByCreate: true,
      changedByUpdate: false,
    },
    resourceLimits: {
      shape: { type: "map", values: t.INTEGER },
      doc: "Limits the service applies to the group (integer counters by name); may be empty.",
      setByCreate: true,
      changedByUpdate: false,
    },
    createTime: t.CREATE_TIME,
    updateTime: t.UPDATE_TIME,
  },
});

/** Inputs of a Group after `check`. */
export interface GroupInputs {
  /** Uid of the parent: the root organisation or another group. Changing it replaces the group. */
  parentUid: string;
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters. Updated in place. */
  name: string;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  description: string;
  /**
   * Uid of an existing group (a direct child of `parentUid`) to bring under management
   * instead of creating one. Read only at creation; see docs/provider.md "Adoption".
   */
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
