/**
 * The `Identity` resource: a principal of one of four kinds. `claimMatch` is assumed
 * with an OIDC token of a reachable issuer, `staticKeys` with a token checked against
 * keys registered with the identity, `awsIdentity` by an AWS role or user, and
 * `servicePrincipal` only by a platform service.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AwsIdentity, ClaimMatch, ServicePrincipal, ServicePrincipalName } from "../sdk/index";
import type { ArgsOf, NamedArgs } from "./resource-class";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { IdentityOutputs } from "./shapes/index";
import { IDENTITY_SHAPE } from "./shapes/index";

/**
 * Which OIDC tokens may assume an {@link Identity}. Exactly one of `issuer` /
 * `issuerPattern` and of `subject` / `subjectPattern`; at most one of `audience` /
 * `audiencePattern`. Patterns are RE2 (checked in preview), matched against the whole
 * value. Every member is updated in place; switching a member for its pattern sends
 * only the pattern.
 */
export interface ClaimMatchArgs extends ArgsOf<ClaimMatch> {}

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
export interface AwsIdentityArgs extends ArgsOf<AwsIdentity> {}

/** Arguments of an {@link Identity}: exactly one of the four kinds. */
export interface IdentityArgs extends NamedArgs {
  /** Uid of the group the identity belongs to. Changing it replaces the identity. */
  readonly parentUid: pulumi.Input<string>;
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
export class Identity extends declaring<IdentityOutputs>(IDENTITY) {
  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super(...registration(IDENTITY, name, args, opts));
    uidFromId(this);
  }
}
