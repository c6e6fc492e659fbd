/**
 * Identity providers: `/iam/v2beta1/identityProviders`, outside OIDC providers a group's
 * users sign in through (addendum, 3). The emulator stores and serves them but never
 * signs anyone in through one; `defaultRole` is checked, never acted on. The client
 * secret is write-only: kept as a digest, never answered.
 */
import { CORRELATION_RULES, type CorrelationRule } from "../../sdk/resources/identity-providers";
import { invalidArgument } from "../errors";
import { requireHttpUrl } from "../identity-kinds/parse";
import { capabilityFor } from "../kinds";
import type { IdentityProviderRecord } from "../model";
import {
  type JsonObject,
  optionalBoolean,
  optionalObject,
  optionalString,
  optionalStringArray,
} from "../requests";
import * as kit from "./kit";
import { refuseIdentityProviderDelete } from "./references";
import { promisedRoleOfCreate, promisedRoleSteps } from "./roles";
import { scimOut } from "./scim";
import { secretDigest } from "./secrets";
import { type UpdateWrite, writableCollection } from "./writable";

/** The rule an unspecified correlation rule behaves as. */
function effectiveRule(rule: string): string {
  return rule === "CORRELATION_RULE_UNSPECIFIED" ? "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID" : rule;
}

export const IDENTITY_PROVIDER_MASK_PATHS: readonly string[] = [
  "name",
  "description",
  "defaultRole",
  "oidc",
  "oidc.issuer",
  "oidc.clientId",
  "oidc.clientSecret",
  "oidc.additionalScopes",
  "oidc.groupsClaim",
  "oidc.pkceEnabled",
  "oidc.correlationRule",
];

export function identityProviderOut(
  provider: IdentityProviderRecord,
  scim?: JsonObject,
): JsonObject {
  const { oidc } = provider;
  return {
    uid: provider.uid,
    name: provider.name,
    description: provider.description,
    defaultRole: provider.defaultRole,
    oidc: {
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      additionalScopes: [...oidc.additionalScopes],
      groupsClaim: oidc.groupsClaim,
      pkceEnabled: oidc.pkceEnabled,
      correlationRule: oidc.correlationRule,
    },
    ...(scim ? { scim } : {}),
    createTime: provider.createTime,
    updateTime: provider.updateTime,
  };
}

// ---------------------------------------------------------------- validation

function requireProviderName(value: unknown, kept?: string): string {
  return kit.requireSizedName(value, "name", kept);
}

function requireDefaultRole(value: unknown): string {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw invalidArgument("defaultRole", "must be a string");
  }
  if (typeof value !== "string" || value === "")
    throw invalidArgument("defaultRole", "is required");
  return kit.requireRoleUid(value, "defaultRole");
}

function requireClientId(oidc: JsonObject): string {
  const clientId = optionalString(oidc, "clientId", "oidc.clientId");
  if (!clientId) throw invalidArgument("oidc.clientId", "is required");
  return clientId;
}

function requireScopes(oidc: JsonObject): string[] {
  const scopes = optionalStringArray(oidc, "additionalScopes", "oidc.additionalScopes") ?? [];
  const seen = new Set<string>();
  scopes.forEach((scope, index) => {
    const field = `oidc.additionalScopes[${index}]`;
    if (scope === "") throw invalidArgument(field, "must not be empty");
    if (/\s/.test(scope)) throw invalidArgument(field, "must not contain whitespace");
    if (seen.has(scope)) throw invalidArgument(field, "appears twice");
    seen.add(scope);
  });
  return [...scopes];
}

/** A correlation rule from the body; absent answers undefined (the caller decides). */
function optionalRule(oidc: JsonObject): CorrelationRule | undefined {
  const rule = optionalString(oidc, "correlationRule", "oidc.correlationRule");
  if (rule === undefined || rule === "") return undefined;
  const known = CORRELATION_RULES.find((value) => value === rule);
  if (known === undefined) {
    throw invalidArgument("oidc.correlationRule", `must be one of ${CORRELATION_RULES.join(", ")}`);
  }
  return known;
}

/** The client secret from the body: its digest, "" for an empty or absent one. */
function secretOf(oidc: JsonObject): string {
  const secret = optionalString(oidc, "clientSecret", "oidc.clientSecret");
  return secret ? secretDigest(secret) : "";
}

/** A whole `oidc` object; `stored` supplies the secret and rule an update keeps. */
function parseOidc(
  value: JsonObject | undefined,
  stored?: IdentityProviderRecord["oidc"],
): IdentityProviderRecord["oidc"] {
  if (value === undefined) throw invalidArgument("oidc", "is required");
  const issuer = requireHttpUrl(value.issuer, "oidc.issuer");
  const clientId = requireClientId(value);
  const digest = secretOf(value);
  const additionalScopes = requireScopes(value);
  const groupsClaim = optionalString(value, "groupsClaim", "oidc.groupsClaim") ?? "";
  const pkceEnabled = optionalBoolean(value, "pkceEnabled", "oidc.pkceEnabled") ?? false;
  const rule = optionalRule(value);
  return {
    issuer,
    clientId,
    clientSecretDigest: digest || (stored?.clientSecretDigest ?? ""),
    additionalScopes,
    groupsClaim,
    pkceEnabled,
    correlationRule: rule ?? stored?.correlationRule ?? "CORRELATION_RULE_UNSPECIFIED",
  };
}

/** A provider without a client secret must use PKCE (at create and after every update). */
function requireSecretOrPkce(oidc: IdentityProviderRecord["oidc"]): void {
  if (oidc.clientSecretDigest === "" && !oidc.pkceEnabled) {
    throw invalidArgument("oidc.clientSecret", "is required unless oidc.pkceEnabled is true");
  }
}

// ---------------------------------------------------------------- updates

/**
 * `current` with `paths` applied (addendum, 3.4): `oidc` (or `*`) replaces the object but
 * keeps the stored secret when none is sent, and the stored rule when none (or
 * UNSPECIFIED) is sent; the secret is cleared only under an explicit
 * `oidc.clientSecret` with an empty value; the correlation rule never changes.
 */
function applyUpdate(
  current: IdentityProviderRecord,
  body: JsonObject,
  paths: readonly string[],
): IdentityProviderRecord {
  const next: IdentityProviderRecord = {
    ...current,
    oidc: { ...current.oidc, additionalScopes: [...current.oidc.additionalScopes] },
  };
  const oidcBody = (): JsonObject => optionalObject(body, "oidc") ?? {};
  for (const path of paths) {
    switch (path) {
      case "name":
        next.name = requireProviderName(body.name, current.name);
        break;
      case "description":
        next.description = optionalString(body, "description") ?? "";
        break;
      case "defaultRole":
        next.defaultRole = requireDefaultRole(body.defaultRole);
        break;
      case "oidc": {
        // `next`, not `current`: an explicit clear of the secret earlier in the mask holds.
        const requested = parseOidc(optionalObject(body, "oidc"), next.oidc);
        requireSameRule(current.oidc.correlationRule, requested.correlationRule);
        // Restating the effective rule keeps the stored spelling.
        next.oidc = { ...requested, correlationRule: current.oidc.correlationRule };
        break;
      }
      case "oidc.issuer":
        next.oidc.issuer = requireHttpUrl(oidcBody().issuer, "oidc.issuer");
        break;
      case "oidc.clientId":
        next.oidc.clientId = requireClientId(oidcBody());
        break;
      case "oidc.clientSecret":
        // Explicit: an empty value clears the secret (refused below unless PKCE is on).
        next.oidc.clientSecretDigest = secretOf(oidcBody());
        break;
      case "oidc.additionalScopes":
        next.oidc.additionalScopes = requireScopes(oidcBody());
        break;
      case "oidc.groupsClaim":
        next.oidc.groupsClaim = optionalString(oidcBody(), "groupsClaim", "oidc.groupsClaim") ?? "";
        break;
      case "oidc.pkceEnabled":
        next.oidc.pkceEnabled =
          optionalBoolean(oidcBody(), "pkceEnabled", "oidc.pkceEnabled") ?? false;
        break;
      case "oidc.correlationRule": {
        const rule = optionalRule(oidcBody());
        if (rule !== undefined) requireSameRule(current.oidc.correlationRule, rule);
        break;
      }
    }
  }
  requireSecretOrPkce(next.oidc);
  return next;
}

/** Restating the effective rule does nothing; changing it is refused. */
function requireSameRule(stored: string, requested: string): void {
  if (effectiveRule(stored) !== effectiveRule(requested)) {
    throw invalidArgument("oidc.correlationRule", "cannot change; create a new identity provider");
  }
}

/**
 * An update promises its default role only when `defaultRole` is among the applied paths
 * (set, changed, restated, or under `*`): then it needs what the create needs,
 * `CAP_IAM_ROLE_BINDINGS_CREATE` and every capability of the role on the provider's
 * group. Any other update needs only `CAP_IAM_IDENTITY_PROVIDERS_UPDATE`.
 */
const promisedByUpdate = promisedRoleSteps<UpdateWrite<IdentityProviderRecord>>((write) =>
  write.paths.includes("defaultRole")
    ? {
        ctx: write.ctx,
        access: write.access,
        groupUid: kit.parentOf(write.current.uid) ?? "",
        roleUid: write.next.defaultRole,
        field: "defaultRole",
      }
    : undefined,
);
const updateSteps: typeof promisedByUpdate = {
  ...promisedByUpdate,
  grants: (write) => {
    if (write.paths.includes("defaultRole")) {
      write.access.require(
        capabilityFor("roleBindings", "create"),
        kit.parentOf(write.current.uid) ?? "",
      );
    }
    promisedByUpdate.grants(write);
  },
};

interface ProviderDraft {
  name: string;
  description: string;
  defaultRole: string;
  oidc: IdentityProviderRecord["oidc"];
}

const createSteps = promisedRoleOfCreate<ProviderDraft>("defaultRole");

export const identityProviders = writableCollection<IdentityProviderRecord, ProviderDraft>({
  name: "identityProviders",
  out: (ctx, provider) => identityProviderOut(provider, scimOut(ctx, provider, "get")),
  listOut: (ctx, provider) => identityProviderOut(provider, scimOut(ctx, provider, "list")),
  // An update that changes the default role needs more, once its paths are known
  // (`updateSteps.grants`).
  authorize: (_ctx, access, uid, verb) => {
    kit.requirePathUid(uid);
    access.require(capabilityFor("identityProviders", verb), uid);
    return undefined;
  },
  list: { sortName: (_ctx, provider) => provider.name },
  create: {
    parentHint: "the owning group uid belongs in the path",
    // A default role promises a future role binding: the caller must be able to make it.
    capabilities: [
      capabilityFor("identityProviders", "create"),
      capabilityFor("roleBindings", "create"),
    ],
    body: (_ctx, body) => {
      const name = requireProviderName(body.name);
      const description = optionalString(body, "description") ?? "";
      const defaultRole = requireDefaultRole(body.defaultRole);
      const oidc = parseOidc(optionalObject(body, "oidc"));
      requireSecretOrPkce(oidc);
      return { name, description, defaultRole, oidc };
    },
    references: createSteps.references,
    roleUsable: createSteps.roleUsable,
    grants: createSteps.grants,
    build: (ctx, draft, parentUid, now) => ({
      uid: kit.newChildUid(
        parentUid,
        (candidate) =>
          ctx.state.identityProviders.has(candidate) || ctx.state.groups.has(candidate),
      ),
      ...draft,
      createTime: now,
      updateTime: now,
    }),
  },
  update: {
    writable: IDENTITY_PROVIDER_MASK_PATHS,
    fields: ["name", "description", "defaultRole", "oidc"],
    apply: (_ctx, current, body, paths) => applyUpdate(current, body, paths),
    ...updateSteps,
  },
  delete: { refuse: (ctx, provider) => refuseIdentityProviderDelete(ctx.state, provider.uid) },
});
