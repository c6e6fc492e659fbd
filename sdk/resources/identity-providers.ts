/**
 * `/iam/v2beta1/identityProviders`: external OIDC providers for sign-in in a
 * group. `oidc.clientSecret` is write-only: the reader never copies it from an
 * answer, and the client secret a request carries never appears in its errors.
 */
import { nameMismatch, WritableCollection } from "../core/collection";
import type { ListParams, Timestamp } from "../core/common-types";
import type { ApiRequester } from "../core/resource";
import { ShapeReader } from "../core/shape";
import { checkEnum, patternString, ROLE_UID } from "./decode";
import { guardSecrets } from "./secrets";

/** How a provider's identities are correlated with the tokens of its issuer; fixed at creation. */
export type CorrelationRule =
  | "CORRELATION_RULE_UNSPECIFIED"
  | "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
  | "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";

/** The OIDC configuration of an identity provider, as answered: never its client secret. */
export interface IdentityProviderOidc {
  /** Absolute http(s) URL. */
  issuer: string;
  clientId: string;
  /** Scopes requested besides `openid`, in order. */
  additionalScopes: string[];
  /** Name of the token claim carrying group memberships; `""` when unset. */
  groupsClaim: string;
  pkceEnabled: boolean;
  /** `UNSPECIFIED` behaves as `SUB_EQUALS_EXTERNAL_ID`. */
  correlationRule: CorrelationRule;
}

/** The OIDC configuration as sent. `clientSecret` is write-only: no answer ever carries it. */
export interface IdentityProviderOidcInput {
  issuer: string;
  clientId: string;
  /** Required at create unless `pkceEnabled` is true. The SDK never prints it. */
  clientSecret?: string;
  additionalScopes?: string[];
  groupsClaim?: string;
  pkceEnabled?: boolean;
  /** Immutable: an update may only restate it. */
  correlationRule?: CorrelationRule;
}

/** State of an identity provider's SCIM credential. */
export type ScimCredentialState =
  | "CREDENTIAL_STATE_UNSPECIFIED"
  | "CREDENTIAL_STATE_NOT_ISSUED"
  | "CREDENTIAL_STATE_LIVE"
  | "CREDENTIAL_STATE_EXPIRED"
  | "CREDENTIAL_STATE_REVOKED"
  | "CREDENTIAL_STATE_ROTATING";

/**
 * The SCIM status of an identity provider, output only (this package does not manage
 * SCIM). Lists may leave members out.
 */
export interface IdentityProviderScim {
  enabled: boolean;
  /** `""` when none. */
  endpointUrl: string;
  tokenExpireTime?: Timestamp;
  previousTokenExpireTime?: Timestamp;
  credentialState: ScimCredentialState;
  etag: string;
}

/** An external OIDC provider for sign-in (SSO) in a group; its uid is `<group uid>/<16 hex>`. */
export interface IdentityProvider {
  uid: string;
  /** 3 to 63 characters of the name pattern; not unique. */
  name: string;
  description: string;
  /** Uid of the role bound, in the provider's group, to a user on first sign-in. */
  defaultRole: string;
  oidc: IdentityProviderOidc;
  /** Present when the answer carries a SCIM status. */
  scim?: IdentityProviderScim;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/**
 * The caller must hold `identityProviders.create` and `roleBindings.create` on the
 * group, and every capability of `defaultRole`.
 */
export interface IdentityProviderCreate {
  name: string;
  description?: string;
  defaultRole: string;
  oidc: IdentityProviderOidcInput;
}

/**
 * Without a mask, the keys present change (`oidc` through the members it carries).
 * A non-empty `oidc.clientSecret` replaces the stored one; an empty one clears it
 * only when the path `oidc.clientSecret` is explicit, and only with PKCE.
 */
export interface IdentityProviderUpdate {
  name?: string;
  description?: string;
  defaultRole?: string;
  oidc?: Partial<IdentityProviderOidcInput>;
}

/** Update-mask paths of an identity provider (proto field names). */
export type IdentityProviderMaskPath =
  | "name"
  | "description"
  | "default_role"
  | "oidc"
  | "oidc.issuer"
  | "oidc.client_id"
  | "oidc.client_secret"
  | "oidc.additional_scopes"
  | "oidc.groups_claim"
  | "oidc.pkce_enabled"
  | "oidc.correlation_rule"
  | "*";

/** Scope filters and `name`, as for every collection. */
export type IdentityProviderListParams = ListParams;

export const CORRELATION_RULES: readonly CorrelationRule[] = [
  "CORRELATION_RULE_UNSPECIFIED",
  "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID",
  "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID",
];

function decodeOidc(r: ShapeReader): IdentityProviderOidc {
  const rule = r.optionalString("correlationRule", "");
  return {
    issuer: r.string("issuer"),
    clientId: r.string("clientId"),
    additionalScopes: r.stringArray("additionalScopes"),
    groupsClaim: r.optionalString("groupsClaim", ""),
    pkceEnabled: r.optionalBoolean("pkceEnabled", false),
    // proto3 JSON may leave out an enum's zero value.
    correlationRule:
      rule === ""
        ? "CORRELATION_RULE_UNSPECIFIED"
        : checkEnum(rule, `${r.at}.correlationRule`, CORRELATION_RULES),
  };
}

export const SCIM_CREDENTIAL_STATES: readonly ScimCredentialState[] = [
  "CREDENTIAL_STATE_UNSPECIFIED",
  "CREDENTIAL_STATE_NOT_ISSUED",
  "CREDENTIAL_STATE_LIVE",
  "CREDENTIAL_STATE_EXPIRED",
  "CREDENTIAL_STATE_REVOKED",
  "CREDENTIAL_STATE_ROTATING",
];

/** The output-only SCIM status; unpopulated members read as unset. */
function decodeScim(r: ShapeReader): IdentityProviderScim {
  const state = r.optionalString("credentialState", "");
  const scim: IdentityProviderScim = {
    enabled: r.optionalBoolean("enabled", false),
    endpointUrl: r.optionalString("endpointUrl", ""),
    credentialState:
      state === ""
        ? "CREDENTIAL_STATE_UNSPECIFIED"
        : checkEnum(state, `${r.at}.credentialState`, SCIM_CREDENTIAL_STATES),
    etag: r.optionalString("etag", ""),
  };
  r.copyTimestamps(scim, "tokenExpireTime", "previousTokenExpireTime");
  return scim;
}

/** Field by field: a `clientSecret` in an answer (which no answer should carry) is dropped, never kept. */
export function decodeIdentityProvider(raw: unknown, at = "identityProvider"): IdentityProvider {
  const r = ShapeReader.of(raw, at);
  const provider: IdentityProvider = {
    uid: r.string("uid"),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    defaultRole: patternString(
      r,
      "defaultRole",
      ROLE_UID,
      "a role uid (40 hex, or <group uid>/<16 hex>)",
    ),
    oidc: decodeOidc(r.object("oidc")),
    createTime: r.timestamp("createTime"),
    updateTime: r.timestamp("updateTime"),
  };
  if (r.raw.scim !== undefined && r.raw.scim !== null) provider.scim = decodeScim(r.object("scim"));
  return provider;
}

/** The client secret a create or update body carries, if any. */
function clientSecretIn(body: unknown): string[] {
  const oidc = (body as { oidc?: { clientSecret?: unknown } } | undefined)?.oidc;
  const secret = oidc?.clientSecret;
  return typeof secret === "string" && secret !== "" ? [secret] : [];
}

/**
 * `/iam/v2beta1/identityProviders`: create needs `identityProviders.create` and
 * `roleBindings.create` on the group and every capability of `defaultRole`.
 */
export class IdentityProviders extends WritableCollection<
  IdentityProvider,
  IdentityProviderCreate,
  IdentityProviderUpdate,
  IdentityProviderMaskPath,
  IdentityProviderListParams
> {
  constructor(client: ApiRequester) {
    super(guardSecrets(client, { keys: ["clientSecret"], valuesIn: clientSecretIn }), {
      path: "/iam/v2beta1/identityProviders",
      listKey: "identityProviders",
      noun: "identityProvider",
      decode: decodeIdentityProvider,
    });
  }

  protected override filterMismatch(item: IdentityProvider, params: IdentityProviderListParams) {
    return nameMismatch(item, params);
  }
}
