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
  /** Uid of the group that owns the role. Changing it replaces the role. */
  parentUid: string;
  /**
   * Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters, and not a built-in
   * role's (`owner`, `editor`, `viewer`, `registry.pull`). Updated in place.
   */
  name: string;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  description: string;
  /**
   * At least one capability, by the API's enum value name (`CAP_REPO_LIST`,
   * `CAP_IAM_GROUPS_CREATE`; the SDK's `CAPABILITIES` lists them). There is no GET
   * capability: a Get needs the LIST one. A former name (`repos.list`) is refused with
   * its replacement. Compared as a set: order and duplicates make no change. Updated in
   * place. After `check`, and in state: sorted, each once.
   */
  capabilities: string[];
  /**
   * Uid of an existing custom role of `parentUid` to bring under management instead of
   * creating one. Read only at creation.
   */
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
