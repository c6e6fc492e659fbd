/**
 * The `Identity` resource: a principal of one of four kinds. `claimMatch` is assumed
 * with an OIDC token of a reachable issuer, `staticKeys` with a token checked against
 * keys registered with the identity, `awsIdentity` by an AWS role or user, and
 * `servicePrincipal` only by a platform service.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ServicePrincipal, ServicePrincipalName } from "../sdk/index";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import { IDENTITY_SHAPE, type IdentityOutputs } from "./shapes/index";

/**
 * Which OIDC tokens may assume an {@link Identity}. Exactly one of `issuer` /
 * `issuerPattern` and of `subject` / `subjectPattern`; at most one of `audience` /
 * `audiencePattern`. Patterns are RE2 (checked in preview), matched against the whole
 * value. Every member is updated in place; switching a member for its pattern sends
 * only the pattern.
 */
export interface ClaimMatchArgs {
  /** The token issuer: an `https` URL (`http` only on loopback, for the emulator). */
  readonly issuer?: pulumi.Input<string>;
  /** RE2 pattern the token's `iss` must fully match, instead of `issuer`. */
  readonly issuerPattern?: pulumi.Input<string>;
  /** The token subject to match; `*` matches any subject of the issuer. */
  readonly subject?: pulumi.Input<string>;
  /**
   * RE2 pattern the token's `sub` must fully match, instead of `subject`, e.g.
   * `repo:acme/infra:ref:refs/heads/(main|release-.*)`.
   */
  readonly subjectPattern?: pulumi.Input<string>;
  /**
   * An element of the token's `aud` must equal it. With neither audience member, the
   * token must be meant for the API itself (its base URL).
   */
  readonly audience?: pulumi.Input<string>;
  /** RE2 pattern an element of the token's `aud` must fully match, instead of `audience`. */
  readonly audiencePattern?: pulumi.Input<string>;
  /**
   * Claims the token must carry with exactly these values (a number or boolean claim
   * compares as its JSON text). Not `iss`, `sub`, `aud`, `exp`, `nbf`, `iat`. Replaced whole.
   */
  readonly claims?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** Claims whose values must fully match these RE2 patterns. Replaced whole. */
  readonly claimPatterns?: pulumi.Input<Record<string, pulumi.Input<string>>>;
}

/**
 * Tokens of an issuer that cannot be reached: they are verified against the keys
 * registered here, and the identity is refused after `expirationTime`.
 */
export interface StaticKeysArgs {
  /** The token issuer the token's `iss` must equal: `https` (`http` only on loopback). */
  readonly issuer: pulumi.Input<string>;
  /** The subject the token's `sub` must equal. */
  readonly subject: pulumi.Input<string>;
  /**
   * The issuer's public keys: a JWKS document `{"keys":[...]}` as a string, of `kty`
   * EC, RSA or OKP, at most 65,536 characters. A private key is refused in preview.
   */
  readonly issuerKeys: pulumi.Input<string>;
  /**
   * RFC 3339 time after which the identity is refused; later than now and at most a
   * year ahead when written. Left out, the service sets creation + 365 days and the
   * value is never compared, so it is not a change.
   */
  readonly expirationTime?: pulumi.Input<string>;
  /** Empty (default), or exactly one audience the token's `aud` must contain. */
  readonly audiences?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * An AWS role or user, by the answer of AWS GetCallerIdentity. Exactly one of `arn` /
 * `arnPattern` and of `userId` / `userIdPattern`.
 */
export interface AwsIdentityArgs {
  /** The AWS account id: 12 digits. */
  readonly awsAccount: pulumi.Input<string>;
  /** The caller's ARN, exactly. */
  readonly arn?: pulumi.Input<string>;
  /** RE2 pattern the caller's ARN must fully match. */
  readonly arnPattern?: pulumi.Input<string>;
  /** The caller's user id, exactly. */
  readonly userId?: pulumi.Input<string>;
  /** RE2 pattern the caller's user id must fully match. */
  readonly userIdPattern?: pulumi.Input<string>;
}

/** Arguments of an {@link Identity}: exactly one of the four kinds. */
export interface IdentityArgs {
  /** Uid of the group the identity belongs to. Changing it replaces the identity. */
  readonly parentUid: pulumi.Input<string>;
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters. Updated in place. */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /**
   * The claims a presented OIDC token must carry. Members are updated in place;
   * choosing another kind replaces the identity.
   */
  readonly claimMatch?: pulumi.Input<ClaimMatchArgs>;
  /** Keys registered for an issuer that cannot be reached. Choosing another kind replaces. */
  readonly staticKeys?: pulumi.Input<StaticKeysArgs>;
  /** An AWS role or user. Choosing another kind replaces. */
  readonly awsIdentity?: pulumi.Input<AwsIdentityArgs>;
  /**
   * The platform service this identity stands for, e.g. `SERVICE_PRINCIPAL_INGESTER`
   * (or its short name, `INGESTER`). Assumed only by that service, never by a token
   * exchange. Changing it replaces the identity.
   */
  readonly servicePrincipal?: pulumi.Input<ServicePrincipal | ServicePrincipalName>;
  /**
   * Uid of an existing identity (a direct child of `parentUid`, of the same kind) to
   * bring under management instead of creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const IDENTITY = resourceKind(IDENTITY_SHAPE);

/** A workload, person or service identity of a group. */
export class Identity extends declaring<IdentityOutputs>() {
  static override readonly __pulumiType = IDENTITY.token;

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(IDENTITY, name, args, opts));
    uidFromId(this);
  }
}
