/** The shape of `ExternalGroupRoleMapping`: its inputs (each replaces it) and its state. */
import { ADOPT_UID, CREATE_TIME, echoed, kindShape, STRING, UID_OUTPUT } from "./table";

const INPUTS = {
  identityProviderUid: {
    shape: STRING,
    doc: "Uid of the identity provider whose sign-ins the mapping applies to.",
    required: true,
    replaces: true,
  },
  externalGroupId: {
    shape: STRING,
    doc: "The provider's own id of the group (a value of its groups claim), at most 256 characters.",
    required: true,
    replaces: true,
  },
  roleUid: {
    shape: STRING,
    doc: "Uid of the role granted: built in, or a custom role of the organisation.",
    required: true,
    replaces: true,
  },
  scope: {
    shape: STRING,
    doc: "Uid of the group where the role applies: the identity provider's organisation.",
    required: true,
    replaces: true,
  },
  adoptUid: ADOPT_UID(
    "Uid of an existing mapping of `identityProviderUid` to bring under management; read only at creation.",
  ),
} as const;

export const EXTERNAL_GROUP_ROLE_MAPPING_SHAPE = kindShape({
  type: "ExternalGroupRoleMapping",
  doc: "A grant of a role to the members of an outside group of an identity provider.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The mapping's uid (its identity provider's uid, `/`, 16 hex)."),
    identityProviderUid: echoed(INPUTS.identityProviderUid, false),
    externalGroupId: echoed(INPUTS.externalGroupId, false),
    roleUid: echoed(INPUTS.roleUid, false),
    scope: echoed(INPUTS.scope, false),
    createTime: CREATE_TIME,
  },
});

/** Inputs of an ExternalGroupRoleMapping after `check`. */
export interface ExternalGroupRoleMappingInputs {
  /** Uid of the identity provider whose sign-ins the mapping applies to. */
  identityProviderUid: string;
  /** The provider's own id of the group (a value of its groups claim). */
  externalGroupId: string;
  /** Uid of the role granted (built in, or a custom role). */
  roleUid: string;
  /** Uid of the group where the role applies: the identity provider's organisation. */
  scope: string;
  /** Uid of an existing mapping of the provider to bring under management. */
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
