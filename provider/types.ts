/**
 * Plain (already resolved) shapes of what the engine hands the provider and what it
 * stores in state. The resource classes wrap the input shapes in `pulumi.Input`.
 */
import type { ServicePrincipal } from "../sdk/index";

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
  /** The issuer URL the token's `iss` must equal. */
  issuer: string;
  /** The subject the token's `sub` must equal. */
  subject: string;
  /** A JWKS document (`{"keys":[...]}`) as a string, public keys only. */
  issuerKeys: string;
  /** RFC 3339, normalised to milliseconds and `Z`; absent: the service's default. */
  expirationTime?: string;
  /** Empty, or exactly one audience the token's `aud` must contain. */
  audiences: string[];
}

/** `staticKeys` of an identity as stored: every member, as the API answers it. */
export interface StaticKeysOutputs {
  /** The issuer URL the token's `iss` must equal. */
  issuer: string;
  /** The subject the token's `sub` must equal. */
  subject: string;
  /** A JWKS document (`{"keys":[...]}`) as a string: the issuer's public keys. */
  issuerKeys: string;
  /** When the exchange starts refusing the identity. */
  expirationTime: string;
  /** Empty, or the one audience the token's `aud` must contain. */
  audiences: string[];
}

/** `awsIdentity` of an identity: one member of each pair set. */
export interface AwsIdentity {
  /** 12 digits. */
  awsAccount: string;
  /** The caller's ARN, exactly. */
  arn?: string;
  /** RE2 pattern the caller's ARN must fully match. */
  arnPattern?: string;
  /** The caller's user id, exactly. */
  userId?: string;
  /** RE2 pattern the caller's user id must fully match. */
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
  /** Uid of the parent: the root organisation or another group. */
  parentUid: string;
  /** The group's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Uid of an existing group to bring under management instead of creating one. */
  adoptUid?: string;
}

/** Outputs of a Group, as stored in state. */
export interface GroupOutputs {
  /** The group's uid (its parent's uid, `/`, 16 hex). */
  uid: string;
  /** Uid of the parent: the root organisation or another group. */
  parentUid: string;
  /** The group's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
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
  /** Uid of the role (40 hex). */
  roleUid: string;
  adoptUid?: string;
}

/**
 * Outputs of a RoleBinding, as stored in state: only what the binding owns, and
 * nothing that can change under it (no copies of the group's, identity's or a custom
 * role's names and descriptions), so a refresh of an unchanged binding shows no change.
 */
export interface RoleBindingOutputs {
  /** The binding's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** Uid of the group the role applies to. */
  groupUid: string;
  /** Uid of the identity that holds the role. */
  identityUid: string;
  /** Uid of the role (40 hex). */
  roleUid: string;
  /**
   * The role's name when it is a built-in role (`owner`, `editor`, `viewer`, ...), which
   * can never be renamed; `""` for a custom role, whose name may change.
   */
  builtInRoleName: string;
  /** When the binding was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
}
