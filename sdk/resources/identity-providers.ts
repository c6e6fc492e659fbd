/**
 * `/iam/v2beta1/identityProviders`: external OIDC providers for sign-in in a
 * group. `oidc.clientSecret` is write-only: the reader never copies it from an
 * answer, and the client secret a request carries never appears in its errors.
 */
import { WritableCollection } from "../core/collection";
import type { ApiRequester } from "../core/resource";
import { ShapeReader } from "../core/shape";
import type {
  CorrelationRule,
  IdentityProvider,
  IdentityProviderCreate,
  IdentityProviderListParams,
  IdentityProviderMaskPath,
  IdentityProviderOidc,
  IdentityProviderScim,
  IdentityProviderUpdate,
  ScimCredentialState,
} from "../types";
import { checkEnum, patternString, ROLE_UID } from "./decode";
import { guardSecrets } from "./secrets";

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
  for (const field of ["tokenExpireTime", "previousTokenExpireTime"] as const) {
    const value = r.optionalTimestamp(field);
    if (value !== undefined) scim[field] = value;
  }
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
    if (!params.name || item.name === params.name) return undefined;
    return {
      field: "name",
      problem: `is not ${JSON.stringify(params.name)}, the name filtered on`,
    };
  }
}
