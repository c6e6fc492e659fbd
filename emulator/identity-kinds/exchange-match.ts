/**
 * Which presented OIDC tokens an identity admits at the token exchange (addendum 6.10):
 * everything `collections/sts.ts` asks of an identity's kind.
 */
import { ownMember } from "../map-keys";
import { fullMatch } from "../patterns";
import type { JsonObject } from "../requests";
import { type AwsIdentity, kindOf, type Relationship, type StaticKeys } from "./shapes";

/**
 * Whether the exchange may admit any token for the identity: a service principal is
 * assumed by platform services only, never through the exchange.
 */
export function exchangeable(record: Relationship): boolean {
  return kindOf(record) !== "servicePrincipal";
}

/** How to verify a presented token for an identity: the issuer, and registered keys if any. */
export interface AcceptedIssuer {
  issuer: string;
  /** `staticKeys.issuerKeys`: verify against these, fetching nothing. */
  issuerKeys?: string;
}

/**
 * Step 2 of the exchange (6.10): whether the identity accepts tokens of `iss`, the
 * issuer the token claims (read, not yet trusted). Answers the issuer whose keys verify
 * the token, or undefined (PERMISSION_DENIED, check `issuer`) so that nothing is
 * fetched for an issuer the identity does not name. An issuer admitted by a pattern
 * must also be an http(s) URL, since its keys are fetched from it.
 */
export function acceptIssuer(
  record: Relationship,
  iss: string | undefined,
  testIssuer: string,
): AcceptedIssuer | undefined {
  if (iss === undefined) return undefined;
  switch (kindOf(record)) {
    case "claimMatch": {
      const match = record.claimMatch ?? {};
      if (match.issuer !== undefined) return iss === match.issuer ? { issuer: iss } : undefined;
      if (match.issuerPattern === undefined || !fullMatch(match.issuerPattern, iss)) {
        return undefined;
      }
      return /^https?:\/\/[^/]/i.test(iss) ? { issuer: iss } : undefined;
    }
    case "staticKeys": {
      const keys = record.staticKeys as StaticKeys;
      return iss === keys.issuer ? { issuer: iss, issuerKeys: keys.issuerKeys } : undefined;
    }
    case "awsIdentity":
      return iss === testIssuer ? { issuer: iss } : undefined;
    case "servicePrincipal":
      return undefined;
  }
}

/**
 * A claim value as the claim conditions compare it: a string as it is, a number or a
 * boolean as its JSON text (`42`, `true`); an object, an array or null never matches.
 */
export function claimText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return JSON.stringify(value);
  if (typeof value === "boolean") return String(value);
  return undefined;
}

function audiencesOf(payload: JsonObject): string[] {
  const aud = payload.aud;
  if (typeof aud === "string") return [aud];
  if (Array.isArray(aud)) return aud.filter((entry): entry is string => typeof entry === "string");
  return [];
}

/**
 * `value` without its trailing `/`s, in linear time: the regex `/\/+$/` retries from
 * every `/` of a run that does not end the value, quadratic on a long untrusted `aud`.
 */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2f) end--;
  return value.slice(0, end);
}

/**
 * The default audience of a presented token, for an identity that names none: the host
 * of `{auth_url}` (`127.0.0.1:8787`), as the definitions default it to the issuer's host
 * name, or `{auth_url}` itself (a trailing `/` ignored), which earlier versions required
 * and which names the same service.
 */
function isDefaultAudience(value: string, origin: string): boolean {
  return (
    value === new URL(origin).host ||
    withoutTrailingSlashes(value) === withoutTrailingSlashes(origin)
  );
}

export interface MatchContext {
  /** `{auth_url}`: its host (or itself) is the audience required when the identity names none. */
  origin: string;
  /** The service clock. */
  nowMs: number;
}

/**
 * Step 3 of the exchange (6.10): the name of the first failed check of a verified
 * token's claims against the identity (`issuer`, `subject`, `audience`,
 * `claim "<name>"`, `static keys expired`, ...), or undefined when the token is
 * accepted. The name never quotes a token value.
 */
export function mismatchOf(
  record: Relationship,
  payload: JsonObject,
  context: MatchContext,
): string | undefined {
  const iss = typeof payload.iss === "string" ? payload.iss : undefined;
  const sub = typeof payload.sub === "string" ? payload.sub : undefined;
  const audiences = audiencesOf(payload);
  switch (kindOf(record)) {
    case "claimMatch": {
      const match = record.claimMatch ?? {};
      const issuerOk =
        iss !== undefined &&
        (match.issuer !== undefined
          ? iss === match.issuer
          : match.issuerPattern !== undefined && fullMatch(match.issuerPattern, iss));
      if (!issuerOk) return "issuer";
      const subjectOk =
        sub !== undefined &&
        (match.subject !== undefined
          ? match.subject === "*" || sub === match.subject
          : match.subjectPattern !== undefined && fullMatch(match.subjectPattern, sub));
      if (!subjectOk) return "subject";
      const audienceOk =
        match.audience !== undefined
          ? audiences.includes(match.audience)
          : match.audiencePattern !== undefined
            ? audiences.some((aud) => fullMatch(match.audiencePattern as string, aud))
            : audiences.some((aud) => isDefaultAudience(aud, context.origin));
      if (!audienceOk) return "audience";
      for (const [name, expected] of Object.entries(match.claims ?? {})) {
        if (claimText(ownMember(payload, name)) !== expected) return `claim "${name}"`;
      }
      for (const [name, pattern] of Object.entries(match.claimPatterns ?? {})) {
        const text = claimText(ownMember(payload, name));
        if (text === undefined || !fullMatch(pattern, text)) return `claim "${name}"`;
      }
      return undefined;
    }
    case "staticKeys": {
      const keys = record.staticKeys as StaticKeys;
      if (context.nowMs >= Date.parse(keys.expirationTime)) return "static keys expired";
      if (iss !== keys.issuer) return "issuer";
      if (sub !== keys.subject) return "subject";
      const audience = keys.audiences?.[0];
      const audienceOk = audience
        ? audiences.includes(audience)
        : audiences.some((aud) => isDefaultAudience(aud, context.origin));
      return audienceOk ? undefined : "audience";
    }
    case "awsIdentity": {
      const aws = record.awsIdentity as AwsIdentity;
      const claim = payload.aws;
      if (typeof claim !== "object" || claim === null || Array.isArray(claim)) {
        return 'claim "aws"';
      }
      const { account, arn, userId } = claim as JsonObject;
      if (typeof account !== "string" || typeof arn !== "string" || typeof userId !== "string") {
        return 'claim "aws"';
      }
      if (account !== aws.awsAccount) return "aws account";
      const arnOk =
        aws.arn !== undefined
          ? arn === aws.arn
          : aws.arnPattern !== undefined && fullMatch(aws.arnPattern, arn);
      if (!arnOk) return "aws arn";
      const userIdOk =
        aws.userId !== undefined
          ? userId === aws.userId
          : aws.userIdPattern !== undefined && fullMatch(aws.userIdPattern, userId);
      if (!userIdOk) return "aws userId";
      // The default audience rule, as for the other kinds: a test-issuer token minted
      // for another service is not replayable here (the real service binds its signed
      // AWS request to an audience too).
      return audiences.some((aud) => isDefaultAudience(aud, context.origin))
        ? undefined
        : "audience";
    }
    case "servicePrincipal":
      return "service principal";
  }
}
