/**
 * An identity provider's SCIM actions (HEAD): `:generateScimToken`,
 * `:regenerateScimToken`, `:revokeScimToken` and `:setScimEnabled`, each needing
 * `CAP_IAM_SCIM_MANAGE` and `CAP_IAM_IDENTITY_PROVIDERS_LIST` on the provider. A token
 * (`cgscim_` + 64 hex) is answered once, by the call that makes it, and kept only as
 * its salted digest: never in the `--data` file, the request log or an error. The
 * provider's `scim` status (`scimOut`) shows the switch, the state of the credential
 * and the etag that regenerating and switching must present (AIP-154: ABORTED when it
 * no longer matches). The emulator serves no SCIM endpoint itself: `endpointUrl` is
 * where it would be.
 */
import { randomBytes } from "node:crypto";
import { aborted, failedPrecondition, invalidArgument, notFound } from "../errors";
import { capabilityFor } from "../kinds";
import type { IdentityProviderRecord, ScimRecord } from "../model";
import {
  type ApiRequest,
  bodyObject,
  type JsonObject,
  ok,
  optionalBoolean,
  optionalString,
} from "../requests";
import { builtInRoleUid } from "../state";
import * as kit from "./kit";
import { secretDigest } from "./secrets";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Without `expireTime` or `neverExpires`: one year (the definitions' default). */
const DEFAULT_LIFETIME_MS = 365 * DAY_MS;
/** The latest `expireTime` accepted: two years ahead. */
const MAX_LIFETIME_MS = 2 * 365 * DAY_MS;
/** A regeneration's overlap: one hour unless asked, at most 24 hours. */
const DEFAULT_OVERLAP_S = 3600;
const MAX_OVERLAP_S = 24 * 3600;
/** Owner-tier bindings an organisation needs before SCIM may be enabled. */
const OWNERS_BEFORE_SCIM = 2;

export type CredentialState =
  | "CREDENTIAL_STATE_NOT_ISSUED"
  | "CREDENTIAL_STATE_LIVE"
  | "CREDENTIAL_STATE_EXPIRED"
  | "CREDENTIAL_STATE_REVOKED"
  | "CREDENTIAL_STATE_ROTATING";

function newToken(): string {
  return `cgscim_${randomBytes(32).toString("hex")}`;
}

function newEtag(): string {
  return randomBytes(8).toString("hex");
}

function endpointUrl(ctx: kit.EmulatorContext, providerUid: string): string {
  return `${ctx.origin}/scim/v2/${providerUid}`;
}

export function credentialState(scim: ScimRecord | undefined, nowMs: number): CredentialState {
  if (!scim) return "CREDENTIAL_STATE_NOT_ISSUED";
  if (scim.revokeTime !== undefined) return "CREDENTIAL_STATE_REVOKED";
  if (scim.tokenExpireTime !== undefined && Date.parse(scim.tokenExpireTime) <= nowMs) {
    return "CREDENTIAL_STATE_EXPIRED";
  }
  if (
    scim.previousTokenExpireTime !== undefined &&
    Date.parse(scim.previousTokenExpireTime) > nowMs
  ) {
    return "CREDENTIAL_STATE_ROTATING";
  }
  return "CREDENTIAL_STATE_LIVE";
}

/**
 * The provider's `scim` status once SCIM was set up, or undefined. A Get carries all of
 * it; a List leaves out the credential's state and expiry (the definitions say so).
 */
export function scimOut(
  ctx: kit.EmulatorContext,
  provider: IdentityProviderRecord,
  detail: "get" | "list",
): JsonObject | undefined {
  const scim = provider.scim;
  if (!scim) return undefined;
  const nowMs = ctx.clock.nowMs();
  const previousActive =
    scim.previousTokenExpireTime !== undefined &&
    scim.revokeTime === undefined &&
    Date.parse(scim.previousTokenExpireTime) > nowMs;
  return {
    enabled: scim.enabled,
    endpointUrl: endpointUrl(ctx, provider.uid),
    ...(detail === "get"
      ? {
          ...(scim.tokenExpireTime !== undefined || scim.revokeTime !== undefined
            ? { tokenExpireTime: scim.revokeTime ?? scim.tokenExpireTime }
            : {}),
          ...(previousActive ? { previousTokenExpireTime: scim.previousTokenExpireTime } : {}),
          credentialState: credentialState(scim, nowMs),
        }
      : {}),
    etag: scim.etag,
  };
}

/** The answer of a call that issues a token: the token (this once) and where it is used. */
function issuedAnswer(
  ctx: kit.EmulatorContext,
  provider: IdentityProviderRecord,
  token: string,
  scim: ScimRecord,
): JsonObject {
  return {
    token,
    endpointUrl: endpointUrl(ctx, provider.uid),
    ...(scim.tokenExpireTime === undefined ? {} : { expireTime: scim.tokenExpireTime }),
    identityProviderUid: provider.uid,
    etag: scim.etag,
  };
}

/** `expireTime` / `neverExpires` of a request: the token's expiry, undefined for none. */
function tokenExpiry(ctx: kit.EmulatorContext, body: JsonObject): string | undefined {
  const neverExpires = optionalBoolean(body, "neverExpires") ?? false;
  const expireTime = optionalString(body, "expireTime");
  if (neverExpires && expireTime) {
    throw invalidArgument("expireTime", "cannot be set together with neverExpires");
  }
  if (neverExpires) return undefined;
  const nowMs = ctx.clock.nowMs();
  if (!expireTime) return new Date(nowMs + DEFAULT_LIFETIME_MS).toISOString();
  const at = Date.parse(expireTime);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(expireTime) || Number.isNaN(at)) {
    throw invalidArgument("expireTime", "must be an RFC 3339 timestamp");
  }
  if (at <= nowMs || at > nowMs + MAX_LIFETIME_MS) {
    throw invalidArgument("expireTime", "must be in the future and at most two years from now");
  }
  return new Date(at).toISOString();
}

/** A duration in seconds from its JSON form (`"3600s"`), bounded to 0..24h. */
function overlapSeconds(body: JsonObject): number {
  const overlap = optionalString(body, "overlap");
  if (overlap === undefined || overlap === "") return DEFAULT_OVERLAP_S;
  const match = /^(\d+)(\.\d{1,9})?s$/.exec(overlap);
  if (!match) throw invalidArgument("overlap", 'must be a duration such as "3600s"');
  return Math.min(Number(match[1]) + Number(match[2] ?? 0), MAX_OVERLAP_S);
}

/** The etag a request must present, checked against the provider's (ABORTED on a race). */
function requireEtag(body: JsonObject, scim: ScimRecord): void {
  const etag = optionalString(body, "etag");
  if (!etag) throw invalidArgument("etag", "is required: read it from the identity provider");
  if (etag !== scim.etag) {
    throw aborted("etag does not match the SCIM configuration's current one; read it again");
  }
}

/** How many owner-tier bindings the organisation of `providerUid` has on its root group. */
function ownerBindings(ctx: kit.EmulatorContext, providerUid: string): number {
  const root = providerUid.split("/")[0];
  const owner = builtInRoleUid("owner");
  let count = 0;
  for (const binding of ctx.state.roleBindings.values()) {
    if (binding.roleUid === owner && kit.parentOf(binding.uid) === root) count++;
  }
  return count;
}

type ScimAction = (
  ctx: kit.EmulatorContext,
  provider: IdentityProviderRecord,
  body: JsonObject,
) => { answer: JsonObject; scim?: ScimRecord };

const ACTIONS: Record<string, ScimAction> = {
  generateScimToken(ctx, provider, body) {
    if (provider.scim) {
      throw failedPrecondition({
        type: "SCIM_TOKEN_EXISTS",
        subject: provider.uid,
        description: `identity provider ${provider.uid} already has a SCIM token: regenerate it instead`,
      });
    }
    const expire = tokenExpiry(ctx, body);
    const token = newToken();
    const scim: ScimRecord = {
      enabled: false,
      tokenDigest: secretDigest(token),
      ...(expire === undefined ? {} : { tokenExpireTime: expire }),
      etag: newEtag(),
    };
    return { scim, answer: issuedAnswer(ctx, provider, token, scim) };
  },

  regenerateScimToken(ctx, provider, body) {
    const current = provider.scim;
    if (!current) throw notFound(`a SCIM token of identity provider ${provider.uid}`);
    const overlap = overlapSeconds(body);
    const expire = tokenExpiry(ctx, body);
    requireEtag(body, current);
    const nowMs = ctx.clock.nowMs();
    // Make before break: a live token keeps working for the overlap; a dead one stays dead.
    const wasLive = ["CREDENTIAL_STATE_LIVE", "CREDENTIAL_STATE_ROTATING"].includes(
      credentialState(current, nowMs),
    );
    const previousUntil =
      wasLive && overlap > 0 ? new Date(nowMs + overlap * 1000).toISOString() : undefined;
    const token = newToken();
    const scim: ScimRecord = {
      enabled: current.enabled,
      tokenDigest: secretDigest(token),
      ...(expire === undefined ? {} : { tokenExpireTime: expire }),
      ...(previousUntil === undefined
        ? {}
        : { previousTokenDigest: current.tokenDigest, previousTokenExpireTime: previousUntil }),
      etag: newEtag(),
    };
    return {
      scim,
      answer: {
        ...issuedAnswer(ctx, provider, token, scim),
        ...(previousUntil === undefined ? {} : { previousTokenExpireTime: previousUntil }),
        requestedOverlap: `${overlap}s`,
      },
    };
  },

  revokeScimToken(ctx, provider) {
    const current = provider.scim;
    if (!current) throw notFound(`a SCIM token of identity provider ${provider.uid}`);
    const now = ctx.clock.isoNow();
    const { previousTokenDigest: _p, previousTokenExpireTime: _t, ...kept } = current;
    const scim: ScimRecord = { ...kept, revokeTime: now, etag: newEtag() };
    return {
      scim,
      answer: {
        identityProviderUid: provider.uid,
        etag: scim.etag,
        enabled: scim.enabled,
        revokeTime: now,
      },
    };
  },

  setScimEnabled(ctx, provider, body) {
    // A proto3 bool: `false` is no field at all on the wire (and in the JSON the gRPC
    // face and the platform's gateway make of it), so a missing `enabled` is false.
    const enabled = optionalBoolean(body, "enabled") ?? false;
    const current = provider.scim;
    if (!current) {
      throw failedPrecondition({
        type: "SCIM_NOT_CONFIGURED",
        subject: provider.uid,
        description: `identity provider ${provider.uid} has no SCIM configuration: generate a SCIM token first`,
      });
    }
    requireEtag(body, current);
    if (enabled && ownerBindings(ctx, provider.uid) < OWNERS_BEFORE_SCIM) {
      throw failedPrecondition({
        type: "TOO_FEW_OWNERS",
        subject: provider.uid.split("/")[0],
        description: `the organisation needs at least ${OWNERS_BEFORE_SCIM} owner role bindings on its root group before SCIM is enabled`,
      });
    }
    const scim: ScimRecord = { ...current, enabled, etag: newEtag() };
    return {
      scim,
      answer: { identityProviderUid: provider.uid, enabled, etag: scim.etag },
    };
  },
};

/** The handler of one SCIM action, `identityProviders/<uid>:<action>`. */
function scimAction(name: keyof typeof ACTIONS): kit.CollectionHandler {
  return async (ctx, request: ApiRequest, uid) => {
    if (request.method !== "POST" || uid === undefined) throw kit.unsupported(request);
    const providerUid = kit.requirePathUid(uid, "identityProviderUid");
    const access = await kit.callerOf(ctx, request, true);
    access.require("CAP_IAM_SCIM_MANAGE", providerUid);
    access.require(capabilityFor("identityProviders", "list"), providerUid);
    const body = bodyObject(request);
    const provider = kit.existing(ctx.state.identityProviders, providerUid);
    const { answer, scim } = ACTIONS[name](ctx, provider, body);
    if (scim) {
      ctx.state.identityProviders.replace({ ...provider, scim });
      ctx.state.touch();
    }
    return ok(answer);
  };
}

export const generateScimToken = scimAction("generateScimToken");
export const regenerateScimToken = scimAction("regenerateScimToken");
export const revokeScimToken = scimAction("revokeScimToken");
export const setScimEnabled = scimAction("setScimEnabled");
