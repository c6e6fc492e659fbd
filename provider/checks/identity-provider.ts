/**
 * The input checks of `IdentityProvider`: its OIDC configuration, its default role and
 * its client secret, which no failure ever quotes.
 */
import {
  CORRELATION_RULES,
  type CorrelationRule,
  type IdentityProviderOidc,
} from "../../sdk/index";
import type { IdentityProviderInputs } from "../shapes/index";
import { Checker, isRecord, isUnknown, UNKNOWN_VALUE, withAdoptUid } from "./checker";

/** Longest client id and secret accepted: generous, yet catches pasted blobs. */
const MAX_CLIENT_ID = 1024;
const MAX_CLIENT_SECRET = 4096;
const MAX_SCOPE = 256;

function checkOidc(checker: Checker, value: unknown): IdentityProviderOidc {
  const unknownOidc: IdentityProviderOidc = {
    issuer: UNKNOWN_VALUE,
    clientId: UNKNOWN_VALUE,
    additionalScopes: [],
    groupsClaim: "",
    pkceEnabled: false,
    correlationRule: "CORRELATION_RULE_UNSPECIFIED",
  };
  // The whole object may be unknown in a preview.
  if (isUnknown(value)) return unknownOidc;
  if (!isRecord(value)) {
    checker.fail(
      "oidc",
      value === undefined || value === null
        ? "is required (an object with issuer and clientId)"
        : "must be an object with issuer and clientId",
    );
    return { ...unknownOidc, issuer: "", clientId: "" };
  }
  const issuer = checker.httpsUrl("oidc.issuer", value.issuer);
  const clientId = checker.requiredString("oidc.clientId", value.clientId);
  if (clientId !== undefined && !isUnknown(clientId)) {
    checker.maxLength("oidc.clientId", clientId, MAX_CLIENT_ID);
  }
  // The secret has its own input, which the class keeps secret; here it would be sent
  // nowhere and stored in plain text, so it is refused (never quoted).
  if (value.clientSecret !== undefined && value.clientSecret !== null) {
    checker.fail(
      "oidc.clientSecret",
      "is not an input here: give the secret as clientSecret, which is kept as a Pulumi secret",
    );
  }
  const additionalScopes = checker.stringArray("oidc.additionalScopes", value.additionalScopes);
  const seen = new Set<string>();
  additionalScopes.forEach((scope, index) => {
    if (isUnknown(scope)) return;
    const property = `oidc.additionalScopes[${index}]`;
    if (scope === "" || /\s/.test(scope)) {
      checker.fail(
        property,
        `must be a non-empty scope without whitespace, got ${JSON.stringify(scope)}`,
      );
    } else if (scope.length > MAX_SCOPE) {
      checker.maxLength(property, scope, MAX_SCOPE);
    } else if (seen.has(scope)) {
      checker.fail(property, `${JSON.stringify(scope)} is listed twice`);
    }
    seen.add(scope);
  });
  const groupsClaim = checker.optionalString("oidc.groupsClaim", value.groupsClaim, MAX_SCOPE);
  const pkceEnabled = checker.optionalBoolean("oidc.pkceEnabled", value.pkceEnabled);
  let correlationRule: CorrelationRule = "CORRELATION_RULE_UNSPECIFIED";
  const rule = value.correlationRule;
  if (rule !== undefined && rule !== null && rule !== "") {
    if (isUnknown(rule) || CORRELATION_RULES.includes(rule as CorrelationRule)) {
      correlationRule = rule as CorrelationRule;
    } else {
      checker.fail(
        "oidc.correlationRule",
        `must be one of ${CORRELATION_RULES.join(", ")}, got ${typeof rule === "string" ? JSON.stringify(rule) : typeof rule}`,
      );
    }
  }
  return {
    issuer: issuer ?? "",
    clientId: clientId ?? "",
    additionalScopes,
    groupsClaim,
    pkceEnabled: pkceEnabled as boolean,
    correlationRule,
  };
}

export function checkIdentityProviderInputs(
  news: Record<string, unknown>,
  olds?: Record<string, unknown>,
) {
  const checker = new Checker();
  const { parentUid, name, description } = checker.namedInGroup(news, olds);
  const defaultRole = checker.roleUid("defaultRole", news.defaultRole);
  const oidc = checkOidc(checker, news.oidc);
  // Never quoted: the secret appears in no failure, only its length.
  let clientSecret = "";
  const secret = news.clientSecret;
  if (secret !== undefined && secret !== null && secret !== "") {
    if (typeof secret !== "string") {
      checker.fail("clientSecret", `must be a string, got ${typeof secret}`);
    } else {
      clientSecret = secret;
      if (!isUnknown(secret)) checker.maxLength("clientSecret", secret, MAX_CLIENT_SECRET);
    }
  } else if (oidc.pkceEnabled === false) {
    checker.fail("clientSecret", "is required unless oidc.pkceEnabled is true");
  }
  const adopt = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid<IdentityProviderInputs>(
    {
      parentUid: parentUid ?? "",
      name: name ?? "",
      description,
      defaultRole: defaultRole ?? "",
      oidc,
      clientSecret,
    },
    adopt,
  );
  return { inputs, failures: checker.failures };
}
