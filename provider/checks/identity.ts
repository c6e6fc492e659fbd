/**
 * The input checks of `Identity`: the fields every identity has, and the one kind it
 * is (`claimMatch`, `staticKeys`, `awsIdentity` or `servicePrincipal`), each checked
 * to the member.
 */
import {
  type AwsIdentity,
  type ClaimMatch,
  IDENTITY_KINDS,
  SERVICE_PRINCIPALS,
} from "../../sdk/index";
import type { IdentityInputs, StaticKeysInputs } from "../shapes/index";
import {
  type Checked,
  Checker,
  isRecord,
  isSet,
  isUnknown,
  MAX_CLAIM_ENTRIES,
  MAX_LENGTH,
  magicKeyRule,
  quoted,
  type RawInputs,
  UNKNOWN_VALUE,
  withAdoptUid,
} from "./checker";

export function checkIdentityInputs(news: RawInputs, olds?: RawInputs): Checked<IdentityInputs> {
  const checker = new Checker();
  const { parentUid, name, description } = checker.namedInGroup(news, olds);
  const kinds = checkIdentityKind(checker, news);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description, ...kinds },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}

const KIND_LIST = IDENTITY_KINDS.join(", ");

/** The identity's kind: exactly one of `claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal`. */
function checkIdentityKind(
  checker: Checker,
  news: RawInputs,
): Pick<IdentityInputs, "claimMatch" | "staticKeys" | "awsIdentity" | "servicePrincipal"> {
  const present = IDENTITY_KINDS.filter((kind) => isSet(news[kind]));
  if (present.length === 0) {
    checker.fail(
      "claimMatch",
      `exactly one of ${KIND_LIST} is required (claimMatch for OIDC tokens of a reachable issuer)`,
    );
    return {};
  }
  // Like the API: the second and later kinds are the ones in error.
  for (const extra of present.slice(1)) {
    checker.fail(extra, `only one of ${KIND_LIST} may be set (${present[0]} is set)`);
  }
  switch (present[0]) {
    case "claimMatch":
      return { claimMatch: checkClaimMatch(checker, news.claimMatch) };
    case "staticKeys":
      return { staticKeys: checkStaticKeys(checker, news.staticKeys) };
    case "awsIdentity":
      return { awsIdentity: checkAwsIdentity(checker, news.awsIdentity) };
    case "servicePrincipal":
      return { servicePrincipal: checkServicePrincipal(checker, news.servicePrincipal) };
  }
}

/** The object of one kind, or undefined (after a failure) when it is not an object. */
function kindObject(
  checker: Checker,
  property: string,
  value: unknown,
): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  checker.fail(property, `must be an object, got ${Array.isArray(value) ? "array" : typeof value}`);
  return undefined;
}

/** Checks the exact member of a pair, once it is known (not the unknown marker). */
type ExactCheck = (checker: Checker, property: string, value: string) => void;

const boundedValue =
  (max: number): ExactCheck =>
  (checker, property, value) =>
    checker.maxLength(property, value, max);

/**
 * One pair of an exact member and its RE2 pattern (`subject` / `subjectPattern`): both
 * set fails on the pattern member, as the API does; neither fails on the exact member
 * when the pair is required. Answers only the member that is set, so state and inputs
 * read alike.
 */
function checkPair(
  checker: Checker,
  raw: Record<string, unknown>,
  prefix: string,
  exact: string,
  pattern: string,
  required: boolean,
  checkExact: ExactCheck,
): Record<string, string> {
  const exactProperty = `${prefix}.${exact}`;
  const patternProperty = `${prefix}.${pattern}`;
  const exactValue = checker.optionalSetString(exactProperty, raw[exact]);
  const patternValue = checker.optionalSetString(patternProperty, raw[pattern]);
  if (exactValue !== undefined && patternValue !== undefined) {
    checker.fail(patternProperty, `only one of ${exactProperty} and ${patternProperty} may be set`);
    return {};
  }
  if (patternValue !== undefined) {
    checker.pattern(patternProperty, patternValue);
    return { [pattern]: patternValue };
  }
  if (exactValue !== undefined) {
    if (!isUnknown(exactValue)) checkExact(checker, exactProperty, exactValue);
    return { [exact]: exactValue };
  }
  if (required) checker.fail(exactProperty, `is required (or ${patternProperty})`);
  return {};
}

/** Claim names the dedicated members and the token verification cover (API rule). */
const RESERVED_CLAIMS = ["iss", "sub", "aud", "exp", "nbf", "iat"];

/**
 * `claims` / `claimPatterns`: claim name to string. Answers the map with its names
 * sorted (as the API stores it), or undefined when empty (the API leaves it out).
 */
function checkClaimMap(
  checker: Checker,
  property: string,
  value: unknown,
  checkValue: (property: string, value: string) => void,
): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (isUnknown(value)) return value as unknown as Record<string, string>;
  if (!isRecord(value)) {
    checker.fail(property, "must be a map of claim name to string");
    return undefined;
  }
  const names = Object.keys(value).sort();
  if (names.length === 0) return undefined;
  if (names.length > MAX_CLAIM_ENTRIES) {
    checker.fail(property, `must have at most ${MAX_CLAIM_ENTRIES} entries, got ${names.length}`);
    return undefined;
  }
  const map: Record<string, string> = {};
  for (const name of names) {
    const entryProperty = `${property}.${name}`;
    if (name === "") {
      checker.fail(property, "a claim name must not be empty");
      continue;
    }
    const magic = magicKeyRule(name);
    if (magic !== undefined) {
      checker.fail(property, magic);
      continue;
    }
    checker.maxLength(entryProperty, name, MAX_LENGTH.claimName);
    if (RESERVED_CLAIMS.includes(name)) {
      checker.fail(
        entryProperty,
        `is a registered claim (${RESERVED_CLAIMS.join(", ")} are matched by the dedicated members)`,
      );
      continue;
    }
    const entry = value[name];
    if (typeof entry !== "string") {
      checker.fail(entryProperty, `must be a string, got ${typeof entry}`);
      continue;
    }
    if (!isUnknown(entry)) checkValue(entryProperty, entry);
    map[name] = entry;
  }
  return map;
}

function checkClaimMatch(checker: Checker, value: unknown): ClaimMatch {
  // The whole object may be unknown in preview (e.g. built from another resource's output).
  if (isUnknown(value)) return { issuer: UNKNOWN_VALUE, subject: UNKNOWN_VALUE };
  const raw = kindObject(checker, "claimMatch", value);
  if (raw === undefined) return {};
  const issuerRule: ExactCheck = (c, property, issuer) => c.issuerUrl(property, issuer);
  const claimMatch: ClaimMatch = {
    ...checkPair(checker, raw, "claimMatch", "issuer", "issuerPattern", true, issuerRule),
    ...checkPair(
      checker,
      raw,
      "claimMatch",
      "subject",
      "subjectPattern",
      true,
      boundedValue(MAX_LENGTH.subject),
    ),
    ...checkPair(
      checker,
      raw,
      "claimMatch",
      "audience",
      "audiencePattern",
      false,
      boundedValue(MAX_LENGTH.value),
    ),
  };
  const claims = checkClaimMap(checker, "claimMatch.claims", raw.claims, (property, entry) =>
    checker.maxLength(property, entry, MAX_LENGTH.value),
  );
  const claimPatterns = checkClaimMap(
    checker,
    "claimMatch.claimPatterns",
    raw.claimPatterns,
    (property, entry) => checker.pattern(property, entry),
  );
  if (claims !== undefined) claimMatch.claims = claims;
  if (claimPatterns !== undefined) claimMatch.claimPatterns = claimPatterns;
  return claimMatch;
}

function checkStaticKeys(checker: Checker, value: unknown): StaticKeysInputs {
  const unknownKeys = { issuer: UNKNOWN_VALUE, subject: UNKNOWN_VALUE, issuerKeys: UNKNOWN_VALUE };
  if (isUnknown(value)) return { ...unknownKeys, audiences: [] };
  const raw = kindObject(checker, "staticKeys", value);
  if (raw === undefined) return { issuer: "", subject: "", issuerKeys: "", audiences: [] };
  const issuer = checker.httpsUrl("staticKeys.issuer", raw.issuer) ?? "";
  const subject = checker.requiredString("staticKeys.subject", raw.subject) ?? "";
  if (!isUnknown(subject)) checker.maxLength("staticKeys.subject", subject, MAX_LENGTH.subject);
  const issuerKeys = checker.issuerKeys("staticKeys.issuerKeys", raw.issuerKeys) ?? "";
  const keys: StaticKeysInputs = {
    issuer,
    subject,
    issuerKeys,
    audiences: checker.audiences("staticKeys.audiences", raw.audiences),
  };
  const expirationTime = checker.timestamp("staticKeys.expirationTime", raw.expirationTime);
  if (expirationTime !== undefined) keys.expirationTime = expirationTime;
  return keys;
}

const AWS_ACCOUNT_PATTERN = /^[0-9]{12}$/;

function checkAwsIdentity(checker: Checker, value: unknown): AwsIdentity {
  if (isUnknown(value)) return { awsAccount: UNKNOWN_VALUE };
  const raw = kindObject(checker, "awsIdentity", value);
  if (raw === undefined) return { awsAccount: "" };
  const awsAccount = checker.requiredString("awsIdentity.awsAccount", raw.awsAccount) ?? "";
  if (awsAccount !== "" && !isUnknown(awsAccount) && !AWS_ACCOUNT_PATTERN.test(awsAccount)) {
    checker.fail(
      "awsIdentity.awsAccount",
      `must be an AWS account id (12 digits), got ${quoted(awsAccount)}`,
    );
  }
  const bounded = boundedValue(MAX_LENGTH.value);
  return {
    awsAccount,
    ...checkPair(checker, raw, "awsIdentity", "arn", "arnPattern", true, bounded),
    ...checkPair(checker, raw, "awsIdentity", "userId", "userIdPattern", true, bounded),
  };
}

const SERVICE_PRINCIPAL_PREFIX = "SERVICE_PRINCIPAL_";

/** A service principal by its full name, or its short name (`INGESTER`), answered in full. */
function checkServicePrincipal(checker: Checker, value: unknown): string {
  const name = checker.requiredString("servicePrincipal", value);
  if (name === undefined) return "";
  if (isUnknown(name)) return name;
  const full = name.startsWith(SERVICE_PRINCIPAL_PREFIX)
    ? name
    : `${SERVICE_PRINCIPAL_PREFIX}${name}`;
  if (!(SERVICE_PRINCIPALS as readonly string[]).includes(full)) {
    checker.fail(
      "servicePrincipal",
      `must be one of ${SERVICE_PRINCIPALS.join(", ")} (or the name without ${SERVICE_PRINCIPAL_PREFIX}), got ${quoted(name)}`,
    );
  }
  return full;
}
