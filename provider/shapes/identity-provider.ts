/** The shape of `IdentityProvider`: an external OIDC provider's inputs and its state. */
import type { IdentityProviderOidc } from "../../sdk/index";
import { CORRELATION_RULES } from "../../sdk/index";
import * as t from "./table";

/** The OIDC configuration, as sent (without the secret) and as answered. */
const OIDC = t.objectOf({
  issuer: t.REQUIRED_STRING("The issuer: an `https` URL (`http` only on loopback)."),
  clientId: t.REQUIRED_STRING("The OAuth client id (not secret)."),
  additionalScopes: {
    shape: t.STRING_ARRAY,
    doc: "Scopes requested besides `openid`, in order; none twice.",
    default: [],
  },
  groupsClaim: {
    shape: t.STRING,
    doc: "Name of the token claim carrying group memberships.",
    default: "",
  },
  pkceEnabled: {
    shape: t.BOOLEAN,
    doc: "Use PKCE; then `clientSecret` may be left out.",
    default: false,
  },
  correlationRule: {
    shape: t.enumOf(CORRELATION_RULES),
    doc: "How a signed-in user is matched to an identity; the API cannot change it.",
    default: "CORRELATION_RULE_UNSPECIFIED",
    replaces: true,
  },
});

const INPUTS = {
  parentUid: t.CONTAINER("Uid of the group users sign in to."),
  name: t.NAME("3 to 63 characters"),
  description: t.DESCRIPTION,
  defaultRole: t.REQUIRED_STRING(
    "Uid of the role bound, in `parentUid`, to a user on first sign-in.",
  ),
  oidc: { shape: OIDC, doc: "The OIDC configuration.", required: true },
  clientSecret: {
    shape: t.STRING,
    doc: "The OAuth client secret, sent as `oidc.clientSecret`; required unless `oidc.pkceEnabled`.",
    secret: true,
    default: "",
    defaultByCheck: true,
  },
  adoptUid: t.ADOPT_UID(
    "Uid of an existing provider (a direct child of `parentUid`) to bring under management; read only at creation.",
  ),
} as const;

export const IDENTITY_PROVIDER_SHAPE = t.kindShape({
  type: "IdentityProvider",
  runtimeExport: "idp",
  blocksGroupDelete: true,
  doc: "An external OIDC provider users of a group sign in through.",
  inputs: INPUTS,
  outputs: {
    uid: t.UID_OUTPUT("The provider's uid (its group's uid, `/`, 16 hex)."),
    parentUid: t.echoed(INPUTS.parentUid, false),
    name: t.echoed(INPUTS.name, true),
    description: t.echoed(INPUTS.description, true),
    defaultRole: t.echoed(INPUTS.defaultRole, true),
    oidc: t.echoed(INPUTS.oidc, true),
    clientSecret: t.echoed(INPUTS.clientSecret, true),
    createTime: t.CREATE_TIME,
    updateTime: t.UPDATE_TIME,
  },
});

/** Inputs of an IdentityProvider after `check`. */
export interface IdentityProviderInputs {
  /** Uid of the group users sign in to. */
  parentUid: string;
  /** The provider's name. */
  name: string;
  /** Free text; `""` when none. */
  description: string;
  /** Uid of the role bound to a user on first sign-in. */
  defaultRole: string;
  /** The OIDC configuration (in state as the API answers it, never the secret). */
  oidc: IdentityProviderOidc;
  /**
   * Sent as `oidc.clientSecret`; `""` when PKCE stands in for it. In state, the last
   * client secret sent (the API never answers it), as a secret.
   */
  clientSecret: string;
  /** Uid of an existing provider of `parentUid` to manage instead of creating one. */
  adoptUid?: string;
}

/** Outputs of an IdentityProvider, as stored in state: its inputs and what the API adds. */
export interface IdentityProviderOutputs extends Omit<IdentityProviderInputs, "adoptUid"> {
  /** The provider's uid (its group's uid, `/`, 16 hex). */
  uid: string;
  /** When the provider was created (RFC 3339, milliseconds, `Z`). */
  createTime: string;
  /** When the provider last changed. */
  updateTime: string;
}
