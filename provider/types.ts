/**
 * Plain (already resolved) shapes of what the engine hands the provider and what it
 * stores in state. The resource classes wrap the input shapes in `pulumi.Input`.
 */
import type {
  AwsIdentity,
  ClaimMatch,
  ServicePrincipal,
  StaticKeys,
  StaticKeysCreate,
} from "../sdk/index";

/*
 * The members of an identity's kind have the SDK's shapes (the API's JSON form, only
 * the members that are set), so the provider takes them from there rather than keeping
 * copies that could drift apart.
 */
export {
  type AwsIdentity,
  type ClaimMatch,
  IDENTITY_KINDS,
  type IdentityKind,
} from "../sdk/index";

/**
 * `staticKeys` of an identity after `check`: `audiences` always present (`[]` when
 * none), `expirationTime` only when the program sets it (RFC 3339, normalised to
 * milliseconds and `Z`; absent: the service's default).
 */
export type StaticKeysInputs = StaticKeysCreate & { audiences: string[] };

/** `staticKeys` of an identity as stored: every member, as the API answers it. */
export type StaticKeysOutputs = StaticKeys;

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

/** Inputs of an Identity after `check`: exactly one of the four kinds is set. */
export interface IdentityInputs {
  /** Uid of the group the identity belongs to. */
  parentUid: string;
  /** The identity's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Which OIDC tokens may assume it: only the members that are set. */
  claimMatch?: ClaimMatch;
  /** Keys registered for an issuer that cannot be reached. */
  staticKeys?: StaticKeysInputs;
  /** An AWS role or user. */
  awsIdentity?: AwsIdentity;
  /** The platform service, by its full name (`SERVICE_PRINCIPAL_INGESTER`). */
  servicePrincipal?: string;
  /** Uid of an existing identity of the same kind to bring under management. */
  adoptUid?: string;
}

/** Outputs of an Identity, as stored in state: only the member of its kind is present. */
export interface IdentityOutputs {
  /** The identity's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** Uid of the group the identity belongs to. */
  parentUid: string;
  /** The identity's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Which OIDC tokens may assume it (the members that are set); absent for other kinds. */
  claimMatch?: ClaimMatch;
  /** The registered keys and the service's `expirationTime`; absent for other kinds. */
  staticKeys?: StaticKeysOutputs;
  /** The AWS role or user; absent for other kinds. */
  awsIdentity?: AwsIdentity;
  /** The platform service, by its full name; absent for other kinds. */
  servicePrincipal?: ServicePrincipal;
  /** Absent until a token has been exchanged for this identity. */
  lastSeenTime?: string;
  /** When the identity was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the identity last changed. */
  updateTime: string;
}

/** Inputs of a RoleBinding after `check`. */
export interface RoleBindingInputs {
  /** Uid of the group the role applies to. */
  groupUid: string;
  /** Uid of the identity that receives the role. */
  identityUid: string;
  /** Uid of the role (a built-in role's 40 hex, or a custom role's `<group uid>/<16 hex>`). */
  roleUid: string;
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
   * can never be renamed; `""` for a custom role, whose name may change.
   */
  builtInRoleName: string;
  /** When the binding was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
}

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
