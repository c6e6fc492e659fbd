/**
 * `/iam/v2beta1/identityProviders`: external OIDC providers for sign-in in a
 * group. `oidc.clientSecret` is write-only: the reader never copies it from an
 * answer, and the client secret a request carries never appears in its errors.
 */
import { badShape, nameMismatch, unknownOutcome, WritableCollection } from "../core/collection";
import type { ListParams, RequestOptions, Timestamp } from "../core/common-types";
import { resourcePath } from "../core/path";
import { REDACTED } from "../core/redact";
import type { ApiRequester } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import { ROLE_UID_PATTERN, ROLE_UID_SHAPE } from "../uids";
import { checkEnum, patternString } from "./decode";
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
    defaultRole: patternString(r, "defaultRole", ROLE_UID_PATTERN, ROLE_UID_SHAPE),
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

/** A SCIM bearer token's form: `cgscim_` and 64 hex. */
const SCIM_TOKEN = /^cgscim_[0-9a-f]{64}$/;

/** When a new SCIM token expires: a time (at most two years ahead), or never. */
export interface ScimTokenExpiry {
  /** RFC 3339; without it (and without `neverExpires`) the service gives one year. */
  expireTime?: Timestamp;
  neverExpires?: boolean;
}

/** `regenerateScimToken`'s options: the etag read from the provider, the overlap, the expiry. */
export interface ScimTokenRegeneration extends ScimTokenExpiry {
  /** The provider's `scim.etag` (or a lifecycle answer's): a stale one is refused (ABORTED). */
  etag: string;
  /** Seconds the replaced token keeps working (0 to 86400; the service's default: 3600). */
  overlapSeconds?: number;
}

/**
 * A new SCIM token and where the identity provider must send it. `token` is readable
 * only as `issued.token`: it is not enumerable, so printing, spreading or serialising
 * the answer never shows it.
 */
export interface IssuedScimToken {
  readonly token: string;
  endpointUrl: string;
  /** Absent for a token that never expires. */
  expireTime?: Timestamp;
  identityProviderUid: string;
  etag: string;
  /** Regeneration only: when the replaced token stops working (absent: it already had). */
  previousTokenExpireTime?: Timestamp;
}

/** The answer of `revokeScimToken`. */
export interface RevokedScimToken {
  identityProviderUid: string;
  etag: string;
  /** The switch, unchanged by a revocation. */
  enabled: boolean;
  revokeTime: Timestamp;
}

/** The answer of `setScimEnabled`. */
export interface ScimSwitch {
  identityProviderUid: string;
  enabled: boolean;
  etag: string;
}

/** The etag's bound: an opaque string (no published format), kept small. */
const MAX_ETAG = 256;

function decodeIssued(raw: unknown, uid: string): IssuedScimToken {
  const r = ShapeReader.of(raw, "scimToken");
  const token = r.raw.token;
  if (typeof token !== "string" || !SCIM_TOKEN.test(token)) {
    // The value is never quoted: it may be a credential of another form.
    throw new ShapeError("scimToken.token", "missing or not cgscim_ followed by 64 hex");
  }
  const issued = {
    endpointUrl: r.string("endpointUrl"),
    identityProviderUid: r.string("identityProviderUid"),
    etag: r.string("etag"),
  } as IssuedScimToken;
  if (issued.identityProviderUid !== uid) {
    throw new ShapeError("scimToken.identityProviderUid", `is not ${uid}, the provider asked for`);
  }
  if (issued.etag.length > MAX_ETAG) throw new ShapeError("scimToken.etag", "too long");
  r.copyTimestamps(issued, "expireTime", "previousTokenExpireTime");
  Object.defineProperty(issued, "token", { value: token, enumerable: false });
  Object.defineProperty(issued, Symbol.for("nodejs.util.inspect.custom"), {
    value: () => ({ ...issued, token: REDACTED }),
    enumerable: false,
  });
  return issued;
}

function expiryBody(expiry: ScimTokenExpiry): Record<string, unknown> {
  if (expiry.neverExpires && expiry.expireTime !== undefined) {
    throw new TypeError("expireTime cannot be set together with neverExpires");
  }
  return {
    ...(expiry.expireTime === undefined ? {} : { expireTime: expiry.expireTime }),
    ...(expiry.neverExpires ? { neverExpires: true } : {}),
  };
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
    super(guardSecrets(client, { keys: ["clientSecret", "token"], valuesIn: clientSecretIn }), {
      path: "/iam/v2beta1/identityProviders",
      listKey: "identityProviders",
      noun: "identityProvider",
      decode: decodeIdentityProvider,
    });
  }

  protected override filterMismatch(item: IdentityProvider, params: IdentityProviderListParams) {
    return nameMismatch(item, params);
  }

  /**
   * Issues the provider's first SCIM token (FAILED_PRECONDITION when it has one:
   * regenerate it). The token is answered this once; provisioning stays off until
   * `setScimEnabled`. Needs `CAP_IAM_SCIM_MANAGE`. Not safe to retry after an unknown
   * outcome: read the provider's `scim` status first.
   */
  generateScimToken(
    uid: string,
    expiry: ScimTokenExpiry = {},
    options?: RequestOptions,
  ): Promise<IssuedScimToken> {
    return this.#issue(uid, "generateScimToken", expiryBody(expiry), options);
  }

  /**
   * Replaces the provider's SCIM token, make before break: a live token keeps working
   * for `overlapSeconds`. The new token is answered this once.
   */
  regenerateScimToken(
    uid: string,
    regeneration: ScimTokenRegeneration,
    options?: RequestOptions,
  ): Promise<IssuedScimToken> {
    const { etag, overlapSeconds } = regeneration;
    if (typeof etag !== "string" || etag === "") throw new TypeError("etag is required");
    if (
      overlapSeconds !== undefined &&
      (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > 86_400)
    ) {
      throw new TypeError(
        `overlapSeconds must be an integer from 0 to 86400, got ${overlapSeconds}`,
      );
    }
    return this.#issue(
      uid,
      "regenerateScimToken",
      {
        etag,
        ...(overlapSeconds === undefined ? {} : { overlap: `${overlapSeconds}s` }),
        ...expiryBody(regeneration),
      },
      options,
    );
  }

  /** Revokes the provider's SCIM tokens at once; the enabled switch is left as it is. */
  async revokeScimToken(uid: string, options?: RequestOptions): Promise<RevokedScimToken> {
    return this.#switch(uid, "revokeScimToken", {}, options, (r) => ({
      identityProviderUid: r.string("identityProviderUid"),
      etag: r.string("etag"),
      enabled: r.optionalBoolean("enabled", false),
      revokeTime: r.timestamp("revokeTime"),
    }));
  }

  /** Starts or pauses SCIM provisioning; `etag` is the provider's current `scim.etag`. */
  async setScimEnabled(
    uid: string,
    enabled: boolean,
    etag: string,
    options?: RequestOptions,
  ): Promise<ScimSwitch> {
    if (typeof enabled !== "boolean") throw new TypeError("enabled must be a boolean");
    if (typeof etag !== "string" || etag === "") throw new TypeError("etag is required");
    return this.#switch(uid, "setScimEnabled", { enabled, etag }, options, (r) => ({
      identityProviderUid: r.string("identityProviderUid"),
      enabled: r.optionalBoolean("enabled", false),
      etag: r.string("etag"),
    }));
  }

  /**
   * One SCIM call that changes a switch: the answer, read by `read`, must be about this
   * provider; a malformed one is a `BadResponseError` (the call changed nothing secret).
   */
  async #switch<T extends { identityProviderUid: string }>(
    uid: string,
    action: string,
    body: Record<string, unknown>,
    options: RequestOptions | undefined,
    read: (r: ShapeReader) => T,
  ): Promise<T> {
    const path = this.#actionPath(uid, action);
    const raw = await this.client.call({ method: "POST", path, body, options });
    try {
      const answer = read(ShapeReader.of(raw, action));
      if (answer.identityProviderUid !== uid) {
        throw new ShapeError(`${action}.identityProviderUid`, `is not ${uid}`);
      }
      return answer;
    } catch (error) {
      throw badShape(error, { method: "POST", path });
    }
  }

  #actionPath(uid: string, action: string): string {
    return `${resourcePath(this.spec.path, uid)}:${action}`;
  }

  /** One reveal-once call: a malformed answer is an unknown outcome (a token may exist). */
  async #issue(
    uid: string,
    action: string,
    body: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<IssuedScimToken> {
    const path = this.#actionPath(uid, action);
    const answer = await this.client.call({ method: "POST", path, body, options });
    try {
      return decodeIssued(answer, uid);
    } catch (error) {
      throw unknownOutcome(
        error,
        { method: "POST", path },
        "a SCIM token may or may not have been issued. Not retried: read the identity provider's scim status before acting again.",
      );
    }
  }
}
