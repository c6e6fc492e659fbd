/**
 * Plain (already resolved) shapes of what the engine hands the provider and what it
 * stores in state. The resource classes wrap the input shapes in `pulumi.Input`.
 */

/** `claimMatch` of an identity: which OIDC tokens may assume it. */
export interface ClaimMatch {
  /** URL of the OIDC token issuer. */
  issuer: string;
  /** Token subject to match (`*` matches any subject of the issuer). */
  subject: string;
}

/** Inputs of a Group after `check`. */
export interface GroupInputs {
  parentUid: string;
  name: string;
  description: string;
  /** Uid of an existing group to bring under management instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Group, as stored in state. */
export interface GroupOutputs {
  uid: string;
  parentUid: string;
  name: string;
  description: string;
  verified: boolean;
  resourceLimits: Record<string, unknown>;
  createTime: string;
  updateTime: string;
}

/** Inputs of an Identity after `check`. */
export interface IdentityInputs {
  parentUid: string;
  name: string;
  description: string;
  claimMatch: ClaimMatch;
  adoptUid?: string;
}

/** Outputs of an Identity, as stored in state. */
export interface IdentityOutputs {
  uid: string;
  parentUid: string;
  name: string;
  description: string;
  claimMatch: ClaimMatch;
  /** Absent until a token has been exchanged for this identity. */
  lastSeenTime?: string;
  createTime: string;
  updateTime: string;
}

/** Inputs of a RoleBinding after `check`. */
export interface RoleBindingInputs {
  groupUid: string;
  identityUid: string;
  roleUid: string;
  adoptUid?: string;
}

/**
 * Outputs of a RoleBinding, as stored in state: only what the binding owns, and
 * nothing that can change under it (no copies of the group's, identity's or a custom
 * role's names and descriptions), so a refresh of an unchanged binding shows no change.
 */
export interface RoleBindingOutputs {
  uid: string;
  groupUid: string;
  identityUid: string;
  roleUid: string;
  /**
   * The role's name when it is a built-in role (`owner`, `editor`, `viewer`, ...), which
   * can never be renamed; `""` for a custom role, whose name may change.
   */
  builtInRoleName: string;
  createTime: string;
}
