/** The `IdentityProvider` resource: an external OIDC provider for sign-in (SSO) in a group. */
import * as pulumi from "@pulumi/pulumi";
import type { CorrelationRule } from "../sdk/index";
import { declaring, registration, resourceKind, uidFromId } from "./resource-class";
import type { IdentityProviderOutputs } from "./shapes/index";
import { IDENTITY_PROVIDER_SHAPE } from "./shapes/index";

/** The OIDC configuration of an {@link IdentityProvider}. */
export interface IdentityProviderOidcArgs {
  /** The issuer: an `https` URL (`http` only on loopback, for the emulator). Updated in place. */
  readonly issuer: pulumi.Input<string>;
  /** The OAuth client id (not secret). Updated in place. */
  readonly clientId: pulumi.Input<string>;
  /**
   * Scopes requested besides `openid` (which is always requested), in order; no
   * whitespace, none twice. Defaults to `[]`. Updated in place.
   */
  readonly additionalScopes?: pulumi.Input<pulumi.Input<string>[]>;
  /** Name of the token claim carrying group memberships; defaults to `""`. Updated in place. */
  readonly groupsClaim?: pulumi.Input<string>;
  /** Use PKCE; then `clientSecret` may be left out. Defaults to `false`. Updated in place. */
  readonly pkceEnabled?: pulumi.Input<boolean>;
  /**
   * How a signed-in user is matched to an identity. The API cannot change it: a change
   * **replaces** the provider. `UNSPECIFIED` (the default) behaves as, and counts the
   * same as, `SUB_EQUALS_EXTERNAL_ID`.
   */
  readonly correlationRule?: pulumi.Input<CorrelationRule>;
}

/** Arguments of an {@link IdentityProvider}. */
export interface IdentityProviderArgs {
  /** Uid of the group users sign in to. Changing it replaces the provider. */
  readonly parentUid: pulumi.Input<string>;
  /** Name, matching `^[a-z0-9 ._-]{1,}$`, 3 to 63 characters. Updated in place. */
  readonly name: pulumi.Input<string>;
  /** Free text, at most 1024 characters; defaults to `""`. Updated in place. */
  readonly description?: pulumi.Input<string>;
  /**
   * Uid of the role bound, in `parentUid`, to a user on first sign-in. The caller must
   * hold each of its capabilities. Updated in place.
   */
  readonly defaultRole: pulumi.Input<string>;
  /** The OIDC configuration. */
  readonly oidc: pulumi.Input<IdentityProviderOidcArgs>;
  /**
   * The OAuth client secret, sent as `oidc.clientSecret`; required unless
   * `oidc.pkceEnabled`. Stored only as a Pulumi secret; the API never returns it, so a
   * refresh cannot see one changed outside Pulumi. Updated in place.
   */
  readonly clientSecret?: pulumi.Input<string>;
  /**
   * Uid of an existing provider (a direct child of `parentUid`) to bring under
   * management instead of creating one; the client secret, when given, is sent once.
   * Read only at creation.
   */
  readonly adoptUid?: pulumi.Input<string>;
}

const IDENTITY_PROVIDER = resourceKind(IDENTITY_PROVIDER_SHAPE);

/** An external OIDC provider users of a group sign in through. */
export class IdentityProvider extends declaring<IdentityProviderOutputs>(IDENTITY_PROVIDER) {
  constructor(name: string, args: IdentityProviderArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      ...registration(
        IDENTITY_PROVIDER,
        name,
        args && {
          ...args,
          // A secret from the start, so the input in state is encrypted too.
          clientSecret:
            args.clientSecret === undefined ? undefined : pulumi.secret(args.clientSecret),
        },
        opts,
      ),
    );
    uidFromId(this);
  }
}
