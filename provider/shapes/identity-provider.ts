/** The shape of `IdentityProvider`: an external OIDC provider's inputs and its state. */
import type { IdentityProviderOidc } from "../../sdk/index";
import { CORRELATION_RULES } from "../../sdk/index";
import {
  ADOPT_UID,
  BOOLEAN,
  CREATE_TIME,
  echoed,
  enumOf,
  kindShape,
  objectOf,
  STRING,
  STRING_ARRAY,
  UID_OUTPUT,
  UPDATE_TIME,
} from "./table";

/** The OIDC configuration, as sent (without the secret) and as answered. */
const OIDC = objectOf({
  issuer: {
    shape: STRING,
    doc: "The issuer: an `https` URL (`http` only on loopback).",
    required: true,
  },
  clientId: { shape: STRING, doc: "The OAuth client id (not secret).", required: true },
  additionalScopes: {
    shape: STRING_ARRAY,
    doc: "Scopes requested besides `openid`, in order; none twice.",
    default: [],
  },
  groupsClaim: {
    shape: STRING,
    doc: "Name of the token claim carrying group memberships.",
    default: "",
  },
  pkceEnabled: {
    shape: BOOLEAN,
    doc: "Use PKCE; then `clientSecret` may be left out.",
    default: false,
  },
  correlationRule: {
    shape: enumOf(CORRELATION_RULES),
    doc: "How a signed-in user is matched to an identity; the API cannot change it.",
    default: "CORRELATION_RULE_UNSPECIFIED",
    replaces: true,
  },
});

const INPUTS = {
  parentUid: {
    shape: STRING,
    doc: "Uid of the group users sign in to.",
    required: true,
    replaces: true,
  },
  name: {
    shape: STRING,
    doc: "Name, matching `^[a-z0-9 ._-]{1,}$`, 3 to 63 characters.",
    required: true,
  },
  description: { shape: STRING, doc: "Free text, at most 1024 characters.", default: "" },
  defaultRole: {
    shape: STRING,
    doc: "Uid of the role bound, in `parentUid`, to a user on first sign-in.",
    required: true,
  },
  oidc: { shape: OIDC, doc: "The OIDC configuration.", required: true },
  clientSecret: {
    shape: STRING,
    doc: "The OAuth client secret, sent as `oidc.clientSecret`; required unless `oidc.pkceEnabled`.",
    secret: true,
    default: "",
    defaultByCheck: true,
  },
  adoptUid: ADOPT_UID(
    "Uid of an existing provider (a direct child of `parentUid`) to bring under management; read only at creation.",
  ),
} as const;

export const IDENTITY_PROVIDER_SHAPE = kindShape({
  type: "IdentityProvider",
  doc: "An external OIDC provider users of a group sign in through.",
  inputs: INPUTS,
  outputs: {
    uid: UID_OUTPUT("The provider's uid (its group's uid, `/`, 16 hex)."),
    parentUid: echoed(INPUTS.parentUid, false),
    name: echoed(INPUTS.name, true),
    description: echoed(INPUTS.description, true),
    defaultRole: echoed(INPUTS.defaultRole, true),
    oidc: echoed(INPUTS.oidc, true),
    clientSecret: echoed(INPUTS.clientSecret, true),
    createTime: CREATE_TIME,
    updateTime: UPDATE_TIME,
  },
});

/** Inputs of an IdentityProvider after `check`. */
export interface IdentityProviderInputs {
  parentUid: string;
  name: string;
  description: string;
  /** Uid of the role bound to a user on first sign-in. */
  defaultRole: string;
  oidc: IdentityProviderOidc;
  /**
   * Sent as `oidc.clientSecret`; `""` when PKCE stands in for it. In state, the last
   * client secret sent (the API never answers it), as a secret.
   */
  clientSecret: string;
  adoptUid?: string;
}

/** Outputs of an IdentityProvider, as stored in state: its inputs and what the API adds. */
export interface IdentityProviderOutputs extends Omit<IdentityProviderInputs, "adoptUid"> {
  uid: string;
  createTime: string;
  updateTime: string;
}
