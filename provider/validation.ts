/**
 * Input validation run by `check`, before any request reaches the API. Every failure
 * names the property and the rule it broke, so `pulumi preview` can point at the line.
 */
import type { CheckFailure } from "@pulumi/pulumi/dynamic";
import { RE2JS } from "re2js";
import { SERVICE_PRINCIPALS } from "../sdk/index";
import {
  type AwsIdentity,
  type ClaimMatch,
  type GroupInputs,
  IDENTITY_KINDS,
  type IdentityInputs,
  type RoleBindingInputs,
  type StaticKeysInputs,
} from "./types";

/** What the engine sends in place of a value that is not known yet (during preview). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Names of groups, identities and roles (API rule). */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;

/**
 * Upper bounds chosen by this provider (the API states none), generous enough for real
 * use while catching pasted blobs before they reach the service.
 */
export const MAX_LENGTH = {
  name: 128,
  description: 1024,
  issuer: 2048,
  subject: 1024,
  /** An audience, a claim's exact value, an AWS ARN or user id. */
  value: 2048,
  /** An RE2 pattern (the API's bound: the worst pattern still compiles quickly). */
  pattern: 1024,
  /** A claim name in `claims` / `claimPatterns`. */
  claimName: 256,
  /** `staticKeys.issuerKeys`, a JWKS document (the API's bound). */
  issuerKeys: 65_536,
} as const;

/** A root organisation: 40 lowercase hex characters. */
const ROOT_UID = "[0-9a-f]{40}";
/** One child segment: 16 lowercase hex characters. */
const CHILD_SEGMENT = "[0-9a-f]{16}";

/** Any group: the root organisation or a group below it. */
export const GROUP_UID_PATTERN = new RegExp(`^${ROOT_UID}(?:/${CHILD_SEGMENT})*$`);
/** A child of some group (identity, child group, role binding): at least one child segment. */
export const CHILD_UID_PATTERN = new RegExp(`^${ROOT_UID}(?:/${CHILD_SEGMENT})+$`);
/** A role: 40 lowercase hex characters, no slash. */
export const ROLE_UID_PATTERN = new RegExp(`^${ROOT_UID}$`);

/** True when the engine does not know this value yet (preview). */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN_VALUE;
}

/** A value quoted for a message, cut short so a pasted blob does not flood the output. */
export function quoted(value: string, max = 80): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, max))}... (${value.length} characters)`;
}

/** The parent of a child uid (everything before the last `/`), or undefined for a root. */
export function parentOf(uid: string): string | undefined {
  const slash = uid.lastIndexOf("/");
  return slash < 0 ? undefined : uid.slice(0, slash);
}

/** True for an `http` host the emulator may run on: localhost, 127.0.0.0/8 or [::1]. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/** Collects failures for one resource's inputs. */
class InputChecker {
  readonly failures: CheckFailure[] = [];

  fail(property: string, reason: string): void {
    this.failures.push({ property, reason });
  }

  /**
   * A required string; returns it (or the unknown marker) when it passed the type and
   * presence rules, so the caller can add shape rules.
   */
  requiredString(property: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === "") {
      this.fail(property, "is required");
      return undefined;
    }
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return undefined;
    }
    return value;
  }

  /** An optional string; absent means `""`. */
  optionalString(property: string, value: unknown): string {
    if (value === undefined || value === null) return "";
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return "";
    }
    return value;
  }

  name(property: string, value: unknown): string | undefined {
    const name = this.requiredString(property, value);
    if (name === undefined || isUnknown(name)) return name;
    if (!NAME_PATTERN.test(name)) {
      this.fail(
        property,
        `must match ${NAME_PATTERN.source} (lowercase letters, digits, space, '.', '_', '-'), got ${quoted(name)}`,
      );
    }
    this.maxLength(property, name, MAX_LENGTH.name);
    return name;
  }

  description(property: string, value: unknown): string {
    const description = this.optionalString(property, value);
    if (!isUnknown(description)) this.maxLength(property, description, MAX_LENGTH.description);
    return description;
  }

  uid(property: string, value: unknown, pattern: RegExp, shape: string): string | undefined {
    const uid = this.requiredString(property, value);
    if (uid === undefined || isUnknown(uid)) return uid;
    if (!pattern.test(uid)) this.fail(property, `must be ${shape}, got ${quoted(uid)}`);
    return uid;
  }

  maxLength(property: string, value: string, max: number): void {
    if (value.length > max) {
      this.fail(property, `must be at most ${max} characters, got ${value.length}`);
    }
  }

  /**
   * `adoptUid` must be a child of the declared parent; checked here when both are known
   * so a typo fails in preview rather than at create.
   */
  adoptUid(
    value: unknown,
    parentProperty: string,
    parentUid: string | undefined,
  ): string | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    const uid = this.uid("adoptUid", value, CHILD_UID_PATTERN, CHILD_SHAPE);
    if (uid === undefined || isUnknown(uid) || parentUid === undefined || isUnknown(parentUid)) {
      return uid;
    }
    if (CHILD_UID_PATTERN.test(uid) && parentOf(uid) !== parentUid) {
      this.fail("adoptUid", `must be a direct child of ${parentProperty} ${parentUid}, got ${uid}`);
    }
    return uid;
  }

  issuer(property: string, value: unknown): string | undefined {
    const issuer = this.requiredString(property, value);
    if (issuer === undefined || isUnknown(issuer)) return issuer;
    this.issuerUrl(property, issuer);
    return issuer;
  }

  /** An optional string where `""` counts as unset; undefined when unset or not a string. */
  optionalSetString(property: string, value: unknown): string | undefined {
    if (value === undefined || value === null || value === "") return undefined;
    if (typeof value !== "string") {
      this.fail(property, `must be a string, got ${typeof value}`);
      return undefined;
    }
    return value;
  }

  /** An issuer already known to be a string: the provider's issuer rule. */
  issuerUrl(property: string, issuer: string): void {
    this.maxLength(property, issuer, MAX_LENGTH.issuer);
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      this.fail(property, `must be an absolute https URL, got ${quoted(issuer)}`);
      return;
    }
    const allowed =
      url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
    if (!allowed) {
      this.fail(
        property,
        `must be an https URL (http only on loopback: localhost, 127.0.0.0/8, [::1]), got ${quoted(issuer)}`,
      );
    }
  }

  /**
   * An RE2 pattern, compiled with re2js as the API compiles it (JavaScript's RegExp
   * accepts lookaround and backreferences, which RE2 refuses, and refuses `(?P<name>`,
   * which RE2 accepts), so a pattern the API would refuse fails in preview.
   */
  pattern(property: string, pattern: string): void {
    if (isUnknown(pattern)) return;
    if (pattern.length > MAX_LENGTH.pattern) {
      this.maxLength(property, pattern, MAX_LENGTH.pattern);
      return;
    }
    try {
      RE2JS.compile(pattern);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.fail(property, `not a valid RE2 pattern: ${message}`);
    }
  }

  /**
   * A JWKS document as a string: at least one public key of `kty` EC, RSA or OKP, none
   * with private members. A private key is refused here, before it is ever sent; its
   * members are named, never their values.
   */
  issuerKeys(property: string, value: unknown): string | undefined {
    const text = this.requiredString(property, value);
    if (text === undefined || isUnknown(text)) return text;
    if (text.length > MAX_LENGTH.issuerKeys) {
      this.maxLength(property, text, MAX_LENGTH.issuerKeys);
      return text;
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      document = undefined;
    }
    const keys = isRecord(document) ? document.keys : undefined;
    if (!Array.isArray(keys)) {
      this.fail(property, 'must be a JWKS document {"keys":[...]} as a string');
      return text;
    }
    if (keys.length === 0) this.fail(property, "must hold at least one public key");
    keys.forEach((key: unknown, index) => {
      if (!isRecord(key)) {
        this.fail(property, `key ${index} must be an object`);
        return;
      }
      if (typeof key.kty !== "string" || !KEY_TYPES.includes(key.kty)) {
        this.fail(property, `key ${index}: kty must be EC, RSA or OKP`);
      }
      const secret = PRIVATE_KEY_MEMBERS.filter((member) => key[member] !== undefined);
      if (secret.length > 0) {
        this.fail(
          property,
          `key ${index} holds private key members (${secret.join(", ")}); only public keys may be registered`,
        );
      }
    });
    return text;
  }

  /** `staticKeys.audiences`: empty, or exactly one non-empty string; absent means `[]`. */
  audiences(property: string, value: unknown): string[] {
    if (value === undefined || value === null) return [];
    if (isUnknown(value)) return [UNKNOWN_VALUE];
    if (!Array.isArray(value) || value.some((entry) => typeof entry !== "string")) {
      this.fail(property, "must be a list of strings");
      return [];
    }
    if (value.length > 1)
      this.fail(property, `must hold at most one audience, got ${value.length}`);
    value.forEach((entry: string, index) => {
      if (entry === "") this.fail(`${property}[${index}]`, "must not be empty");
      else if (!isUnknown(entry)) this.maxLength(`${property}[${index}]`, entry, MAX_LENGTH.value);
    });
    return [...value];
  }

  /**
   * An optional RFC 3339 time, answered in the form the API answers it (milliseconds,
   * `Z`), so a time written with an offset or without milliseconds compares equal to
   * the stored one. Whether it lies in the allowed window is the API's to judge at the
   * write: checked here, a time that has passed would fail every later preview.
   */
  timestamp(property: string, value: unknown): string | undefined {
    const text = this.optionalSetString(property, value);
    if (text === undefined || isUnknown(text)) return text;
    const ms = RFC3339.test(text) ? Date.parse(text.toUpperCase()) : Number.NaN;
    if (Number.isNaN(ms)) {
      this.fail(
        property,
        `must be an RFC 3339 time such as "2027-01-31T00:00:00Z", got ${quoted(text)}`,
      );
      return undefined;
    }
    return new Date(ms).toISOString();
  }
}

const GROUP_SHAPE = "a group uid (40 lowercase hex, then zero or more '/' + 16 lowercase hex)";
const CHILD_SHAPE = "a child uid (its group's uid, then '/' + 16 lowercase hex)";
const ROLE_SHAPE = "a role uid (40 lowercase hex, no '/')";

/** Result of validating one resource's inputs: normalized inputs and failures. */
export interface Checked<T> {
  inputs: T;
  failures: CheckFailure[];
}

type RawInputs = Record<string, unknown>;

/** Keeps `adoptUid` only when set, so inputs without it stay free of the key. */
function withAdoptUid<T extends object>(inputs: T, adoptUid: string | undefined): T {
  return adoptUid === undefined ? inputs : { ...inputs, adoptUid };
}

export function checkGroupInputs(news: RawInputs): Checked<GroupInputs> {
  const checker = new InputChecker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}

export function checkIdentityInputs(news: RawInputs): Checked<IdentityInputs> {
  const checker = new InputChecker();
  const parentUid = checker.uid("parentUid", news.parentUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const name = checker.name("name", news.name);
  const description = checker.description("description", news.description);
  const kinds = checkIdentityKind(checker, news);
  const adoptUid = checker.adoptUid(news.adoptUid, "parentUid", parentUid);
  const inputs = withAdoptUid(
    { parentUid: parentUid ?? "", name: name ?? "", description, ...kinds },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}

/** Present: neither absent, `null` nor `""` (the API's rule for one-of members). */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** A plain object (not an array, not null). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const KIND_LIST = IDENTITY_KINDS.join(", ");

/** The identity's kind: exactly one of `claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal`. */
function checkIdentityKind(
  checker: InputChecker,
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
  checker: InputChecker,
  property: string,
  value: unknown,
): Record<string, unknown> | undefined {
  if (isRecord(value)) return value;
  checker.fail(property, `must be an object, got ${Array.isArray(value) ? "array" : typeof value}`);
  return undefined;
}

/** Checks the exact member of a pair, once it is known (not the unknown marker). */
type ExactCheck = (checker: InputChecker, property: string, value: string) => void;

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
  checker: InputChecker,
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
  checker: InputChecker,
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
  const map: Record<string, string> = {};
  for (const name of names) {
    const entryProperty = `${property}.${name}`;
    if (name === "") {
      checker.fail(property, "a claim name must not be empty");
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

function checkClaimMatch(checker: InputChecker, value: unknown): ClaimMatch {
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

/** An RFC 3339 time (what the API accepts). */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** JWK members that only a private key has (API rule: only public keys are accepted). */
const PRIVATE_KEY_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];
const KEY_TYPES = ["EC", "RSA", "OKP"];

function checkStaticKeys(checker: InputChecker, value: unknown): StaticKeysInputs {
  const unknownKeys = { issuer: UNKNOWN_VALUE, subject: UNKNOWN_VALUE, issuerKeys: UNKNOWN_VALUE };
  if (isUnknown(value)) return { ...unknownKeys, audiences: [] };
  const raw = kindObject(checker, "staticKeys", value);
  if (raw === undefined) return { issuer: "", subject: "", issuerKeys: "", audiences: [] };
  const issuer = checker.issuer("staticKeys.issuer", raw.issuer) ?? "";
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

function checkAwsIdentity(checker: InputChecker, value: unknown): AwsIdentity {
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
function checkServicePrincipal(checker: InputChecker, value: unknown): string {
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

export function checkRoleBindingInputs(news: RawInputs): Checked<RoleBindingInputs> {
  const checker = new InputChecker();
  const groupUid = checker.uid("groupUid", news.groupUid, GROUP_UID_PATTERN, GROUP_SHAPE);
  const identityUid = checker.uid("identityUid", news.identityUid, CHILD_UID_PATTERN, CHILD_SHAPE);
  const roleUid = checker.uid("roleUid", news.roleUid, ROLE_UID_PATTERN, ROLE_SHAPE);
  const adoptUid = checker.adoptUid(news.adoptUid, "groupUid", groupUid);
  const inputs = withAdoptUid(
    { groupUid: groupUid ?? "", identityUid: identityUid ?? "", roleUid: roleUid ?? "" },
    adoptUid,
  );
  return { inputs, failures: checker.failures };
}
