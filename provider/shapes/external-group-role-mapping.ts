/** The shape of `ExternalGroupRoleMapping`: its inputs (each replaces it) and its state. */
import * as t from "./table";

const INPUTS = {
  identityProviderUid: t.CONTAINER(
    "Uid of the identity provider whose sign-ins the mapping applies to.",
  ),
  externalGroupId: t.CONTAINER(
    "The provider's own id of the group (a value of its groups claim), at most 256 characters.",
  ),
  roleUid: t.CONTAINER("Uid of the role granted: built in, or a custom role of the organisation."),
  scope: t.CONTAINER(
    "Uid of the group where the role applies: the identity provider's organisation.",
  ),
  adoptUid: t.ADOPT_UID(
    "Uid of an existing mapping of `identityProviderUid` to bring under management; read only at creation.",
  ),
} as const;

export const EXTERNAL_GROUP_ROLE_MAPPING_SHAPE = t.kindShape({
  type: "ExternalGroupRoleMapping",
  runtimeExport: "egrm",
  doc: "A grant of a role to the members of an outside group of an identity provider.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The mapping's uid (its identity provider's uid, `/`, 16 hex)."),
    identityProviderUid: t.echoed(INPUTS.identityProviderUid, false),
    externalGroupId: t.echoed(INPUTS.externalGroupId, false),
    roleUid: t.echoed(INPUTS.roleUid, false),
    scope: t.echoed(INPUTS.scope, false),
    createTime: t.CREATE_TIME,
  },
});

/** Inputs of an ExternalGroupRoleMapping after `check`. */
export interface ExternalGroupRoleMappingInputs {
  /** Uid of the identity provider whose sign-ins the mapping applies to. */
  identityProviderUid: string;
  /** The provider's own id of the group (a value of its groups claim), at most 256 characters. */
  externalGroupId: string;
  /**
   * Uid of the role granted: built in, or a custom role of the organisation. The caller
   * must hold each of its capabilities.
   */
  roleUid: string;
  /** Uid of the group where the role applies: the identity provider's organisation (root group). */
  scope: string;
  /**
   * Uid of an existing mapping of `identityProviderUid` to bring under management
   * instead of creating one. Read only at creation.
   */
  adoptUid?: string;
}

/** Outputs of an ExternalGroupRoleMapping, as stored in state: its inputs, uid and creation. */
export interface ExternalGroupRoleMappingOutputs
  extends Omit<ExternalGroupRoleMappingInputs, "adoptUid"> {
  /** The mapping's uid (its identity provider's uid, `/`, 16 hex). */
  uid: string;
  /** When the mapping was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
}
