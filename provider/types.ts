/**
 * Plain (already resolved) shapes of what the engine hands the provider and what it
 * stores in state. The resource classes wrap the input shapes in `pulumi.Input`.
 */

/**
 * `claimMatch` of an identity: which OIDC tokens may assume it. Only the members that
 * are set appear (as in the API's answers), so an exact match reads `{ issuer, subject }`.
 * Exactly one of `issuer` / `issuerPattern` and of `subject` / `subjectPattern`; at
 * most one of `audience` / `audiencePattern`. Patterns are RE2, matched whole.
 */
export interface ClaimMatch {
  /** URL of the OIDC token issuer. */
  issuer?: string;
  /** RE2 pattern the token's `iss` must fully match. */
  issuerPattern?: string;
  /** Token subject to match (`*` matches any subject of the issuer). */
  subject?: string;
  /** RE2 pattern the token's `sub` must fully match. */
  subjectPattern?: string;
  /** An element of the token's `aud` must equal it. */
  audience?: string;
  /** RE2 pattern an element of the token's `aud` must fully match. */
  audiencePattern?: string;
  /** Claim name to exact value; absent when empty. */
  claims?: Record<string, string>;
  /** Claim name to RE2 pattern; absent when empty. */
  claimPatterns?: Record<string, string>;
}

/** `staticKeys` of an identity after `check`: `expirationTime` only when the program sets it. */
export interface StaticKeysInputs {
  issuer: string;
  subject: string;
  /** A JWKS document (`{"keys":[...]}`) as a string, public keys only. */
  issuerKeys: string;
  /** RFC 3339, normalised to milliseconds and `Z`; absent: the service's default. */
  expirationTime?: string;
  /** Empty, or exactly one audience. */
  audiences: string[];
}

/** `staticKeys` of an identity as stored: every member, as the API answers it. */
export interface StaticKeysOutputs {
  issuer: string;
  subject: string;
  issuerKeys: string;
  /** When the exchange starts refusing the identity. */
  expirationTime: string;
  audiences: string[];
}

/** `awsIdentity` of an identity: one member of each pair set. */
export interface AwsIdentity {
  /** 12 digits. */
  awsAccount: string;
  arn?: string;
  arnPattern?: string;
  userId?: string;
  userIdPattern?: string;
}

/** The kind members of an identity, exactly one of which is set. */
export const IDENTITY_KINDS = [
  "claimMatch",
  "staticKeys",
  "awsIdentity",
  "servicePrincipal",
] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

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
  /** Integer counters by name (`repositories`, ...); may be empty. */
  resourceLimits: Record<string, number>;
  createTime: string;
  updateTime: string;
}

/** Inputs of an Identity after `check`: exactly one of the four kinds is set. */
export interface IdentityInputs {
  parentUid: string;
  name: string;
  description: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeysInputs;
  awsIdentity?: AwsIdentity;
  /** Full name, e.g. `SERVICE_PRINCIPAL_INGESTER`. */
  servicePrincipal?: string;
  adoptUid?: string;
}

/** Outputs of an Identity, as stored in state: only the member of its kind is present. */
export interface IdentityOutputs {
  uid: string;
  parentUid: string;
  name: string;
  description: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeysOutputs;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: string;
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
