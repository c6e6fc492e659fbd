/** The `Identity` resource: a principal that authenticates by OIDC claims. */
import type * as pulumi from "@pulumi/pulumi";
import { IrmResource, resourceKind } from "./resource-class";
import { identityProvider } from "./shim";

/** Which OIDC tokens may assume an {@link Identity}. */
export interface ClaimMatchArgs {
  /** The token issuer: an `https` URL (`http` only on loopback, for the emulator). */
  readonly issuer: pulumi.Input<string>;
  /** The token subject to match; `*` matches any subject of the issuer. */
  readonly subject: pulumi.Input<string>;
}

/** Arguments of an {@link Identity}. */
export interface IdentityArgs {
  /** Uid of the group the identity belongs to. Changing it replaces the identity. */
  readonly parentUid: pulumi.Input<string>;
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, at most 128 characters. Updated in place. */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /** The issuer and subject a presented OIDC token must carry. Updated in place. */
  readonly claimMatch: pulumi.Input<ClaimMatchArgs>;
  /**
   * Uid of an existing identity (a direct child of `parentUid`) to bring under
   * management instead of creating one. Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const IDENTITY = resourceKind("Identity", identityProvider, [
  "uid",
  "parentUid",
  "name",
  "description",
  "claimMatch",
  "lastSeenTime",
  "createTime",
  "updateTime",
]);

/** A workload or person identity, matched by the claims of an external OIDC token. */
export class Identity extends IrmResource {
  static override readonly __pulumiType = IDENTITY.token;

  /** The identity's uid (its group's uid, `/`, 16 hex). */
  declare readonly uid: pulumi.Output<string>;
  declare readonly parentUid: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string>;
  declare readonly claimMatch: pulumi.Output<{ issuer: string; subject: string }>;
  /** When a token was last exchanged for this identity; undefined until then. */
  declare readonly lastSeenTime: pulumi.Output<string | undefined>;
  declare readonly createTime: pulumi.Output<string>;
  declare readonly updateTime: pulumi.Output<string>;

  constructor(name: string, args: IdentityArgs, opts?: pulumi.CustomResourceOptions) {
    super(IDENTITY, name, args && { ...args, description: args.description ?? "" }, opts);
  }
}
