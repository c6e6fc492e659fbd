/** Reading the relationship of an identity's write body, kind by kind (addendum 6.1 to 6.5). */
import { invalidArgument } from "../errors";
import { refuseMagicKey } from "../map-keys";
import { requirePattern } from "../patterns";
import type { JsonObject } from "../requests";
import {
  type AwsIdentity,
  type ClaimMatch,
  IDENTITY_KINDS,
  type IdentityKind,
  MAX_CLAIM_ENTRIES,
  MAX_ISSUER_KEYS_LENGTH,
  RESERVED_CLAIMS,
  type Relationship,
  SERVICE_PRINCIPALS,
  type ServicePrincipal,
  STATIC_KEYS_MAX_LIFETIME_MS,
  type StaticKeys,
} from "./shapes";

/** A member that counts as set: present, not null, and for strings not empty. */
export function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** An optional string member: `undefined` when unset (absent, null or ""), an error for another type. */
function stringMember(object: JsonObject, key: string, field: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidArgument(field, "must be a string");
  return value === "" ? undefined : value;
}

export function objectValue(value: unknown, field: string): JsonObject {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidArgument(field, "must be an object");
  }
  return value as JsonObject;
}

/**
 * A required absolute http(s) URL: the issuer rule of identities and of identity
 * providers (`collections/identity-providers.ts` uses it too).
 */
export function requireHttpUrl(value: unknown, field: string): string {
  if (typeof value !== "string" && value !== undefined && value !== null) {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || value === "") throw invalidArgument(field, "is required");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(field, "must be an http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalidArgument(field, "must be an http(s) URL");
  }
  return value;
}

/**
 * One of a pair `exact` | `pattern`: both set is an error on the pattern member, neither
 * is `<exact>: is required` when `required`. Answers the member that is set, validated
 * (`exact` by `checkExact`, the pattern as RE2).
 */
function pairMember(
  object: JsonObject,
  prefix: string,
  exact: string,
  pattern: string,
  required: boolean,
  checkExact: (value: string | undefined, field: string) => string = (value, field) => {
    if (value === undefined) throw invalidArgument(field, "is required");
    return value;
  },
): Record<string, string> {
  const exactField = `${prefix}.${exact}`;
  const patternField = `${prefix}.${pattern}`;
  const exactValue = stringMember(object, exact, exactField);
  const patternValue = stringMember(object, pattern, patternField);
  if (exactValue !== undefined && patternValue !== undefined) {
    throw invalidArgument(patternField, `only one of ${exactField} and ${patternField} may be set`);
  }
  if (patternValue !== undefined) return { [pattern]: requirePattern(patternField, patternValue) };
  if (exactValue === undefined && !required) return {};
  return { [exact]: checkExact(exactValue, exactField) };
}

/** A map of claim name to string; reserved and empty names refused. Answers it sorted, or undefined when empty. */
function claimMap(
  value: unknown,
  field: string,
  check: (value: string, field: string) => string,
): Record<string, string> | undefined {
  const map = objectValue(value, field);
  const names = Object.keys(map).sort();
  if (names.length === 0) return undefined;
  if (names.length > MAX_CLAIM_ENTRIES) {
    throw invalidArgument(
      field,
      `must have at most ${MAX_CLAIM_ENTRIES} entries, got ${names.length}`,
    );
  }
  const out: Record<string, string> = {};
  for (const name of names) {
    if (name === "") throw invalidArgument(field, "a claim name must not be empty");
    refuseMagicKey(name, field);
    const entryField = `${field}.${name}`;
    if (RESERVED_CLAIMS.includes(name)) {
      throw invalidArgument(
        entryField,
        `is a registered claim (${RESERVED_CLAIMS.join(", ")} are matched by the dedicated members and the token verification)`,
      );
    }
    const entry = map[name];
    if (typeof entry !== "string") throw invalidArgument(entryField, "must be a string");
    out[name] = check(entry, entryField);
  }
  return out;
}

/** A `claimMatch` object, validated in the addendum's order (6.2). */
export function parseClaimMatch(value: unknown): ClaimMatch {
  const object = objectValue(value, "claimMatch");
  const out: ClaimMatch = {
    ...pairMember(object, "claimMatch", "issuer", "issuerPattern", true, requireHttpUrl),
    ...pairMember(object, "claimMatch", "subject", "subjectPattern", true),
    ...pairMember(object, "claimMatch", "audience", "audiencePattern", false),
  };
  const claims = claimMap(object.claims, "claimMatch.claims", (entry) => entry);
  const claimPatterns = claimMap(object.claimPatterns, "claimMatch.claimPatterns", (entry, field) =>
    requirePattern(field, entry),
  );
  if (claims) out.claims = claims;
  if (claimPatterns) out.claimPatterns = claimPatterns;
  return out;
}

const PRIVATE_KEY_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "k"];
/**
 * `staticKeys.issuerKeys`: required, and at most `MAX_ISSUER_KEYS_LENGTH` characters. The
 * definitions say only "JWKS-formatted public keys", so a value the emulator cannot use
 * as a key set is stored as given (a token checked against it is then refused). One
 * refusal stays, for safety: a key set that parses and holds private key members is
 * refused, naming the members and never their values, so no private key is stored.
 */
function requireIssuerKeys(value: string | undefined): string {
  const field = "staticKeys.issuerKeys";
  if (value === undefined) throw invalidArgument(field, "is required");
  if (value.length > MAX_ISSUER_KEYS_LENGTH) {
    throw invalidArgument(field, `must be at most ${MAX_ISSUER_KEYS_LENGTH} characters`);
  }
  let document: unknown;
  try {
    document = JSON.parse(value);
  } catch {
    return value;
  }
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) return value;
  keys.forEach((key: unknown, index) => {
    if (typeof key !== "object" || key === null || Array.isArray(key)) return;
    const jwk = key as JsonObject;
    // Name the private members present, never their values.
    const secret = PRIVATE_KEY_MEMBERS.filter((member) => jwk[member] !== undefined);
    if (secret.length > 0) {
      throw invalidArgument(
        field,
        `key ${index} holds private key members (${secret.join(", ")}); only public keys are accepted`,
      );
    }
  });
  return value;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time in the answered form (milliseconds, `Z`), or undefined when it is not one. */
export function normaliseTimestamp(value: string): string | undefined {
  if (!RFC3339.test(value)) return undefined;
  const ms = Date.parse(value.toUpperCase());
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

export interface StaticKeysOptions {
  /** The service clock at the write. */
  nowMs: number;
  /**
   * Whether this write sets `expirationTime` (a create, `staticKeys` whole, or the path
   * `staticKeys.expirationTime`): only then must it lie within (now, now + 365 days], so
   * an update of another member leaves an expired identity expired, and valid.
   */
  expirationWritten: boolean;
}

/** A `staticKeys` object (6.3); an unset `expirationTime` becomes now + 365 days. */
export function parseStaticKeys(value: unknown, options: StaticKeysOptions): StaticKeys {
  const object = objectValue(value, "staticKeys");
  const issuer = requireHttpUrl(
    stringMember(object, "issuer", "staticKeys.issuer"),
    "staticKeys.issuer",
  );
  const subject = stringMember(object, "subject", "staticKeys.subject");
  if (subject === undefined) throw invalidArgument("staticKeys.subject", "is required");
  const issuerKeys = requireIssuerKeys(stringMember(object, "issuerKeys", "staticKeys.issuerKeys"));
  const rawExpiration = stringMember(object, "expirationTime", "staticKeys.expirationTime");
  let expirationTime: string;
  if (rawExpiration === undefined) {
    expirationTime = new Date(options.nowMs + STATIC_KEYS_MAX_LIFETIME_MS).toISOString();
  } else {
    const normalised = normaliseTimestamp(rawExpiration);
    if (normalised === undefined) {
      throw invalidArgument("staticKeys.expirationTime", "must be an RFC 3339 timestamp");
    }
    const ms = Date.parse(normalised);
    if (
      options.expirationWritten &&
      (ms <= options.nowMs || ms > options.nowMs + STATIC_KEYS_MAX_LIFETIME_MS)
    ) {
      throw invalidArgument(
        "staticKeys.expirationTime",
        "must be later than now and at most 365 days from now",
      );
    }
    expirationTime = normalised;
  }
  const audiences = object.audiences;
  let audienceList: string[] = [];
  if (audiences !== undefined && audiences !== null) {
    if (!Array.isArray(audiences) || audiences.some((entry) => typeof entry !== "string")) {
      throw invalidArgument("staticKeys.audiences", "must be an array of strings");
    }
    if (audiences.length > 1 || audiences.some((entry) => entry === "")) {
      throw invalidArgument(
        "staticKeys.audiences",
        "must be empty or hold exactly one non-empty audience",
      );
    }
    audienceList = [...(audiences as string[])];
  }
  return { issuer, subject, issuerKeys, expirationTime, audiences: audienceList };
}

/** An `awsIdentity` object (6.4). */
export function parseAwsIdentity(value: unknown): AwsIdentity {
  const object = objectValue(value, "awsIdentity");
  const awsAccount = stringMember(object, "awsAccount", "awsIdentity.awsAccount");
  if (awsAccount === undefined) throw invalidArgument("awsIdentity.awsAccount", "is required");
  if (!/^[0-9]{12}$/.test(awsAccount)) {
    throw invalidArgument("awsIdentity.awsAccount", "must be 12 digits");
  }
  return {
    awsAccount,
    ...pairMember(object, "awsIdentity", "arn", "arnPattern", true),
    ...pairMember(object, "awsIdentity", "userId", "userIdPattern", true),
  };
}

/** A `servicePrincipal` (6.5): one of the 13 full enum names. */
export function parseServicePrincipal(value: unknown): ServicePrincipal {
  if (typeof value !== "string" || !(SERVICE_PRINCIPALS as readonly string[]).includes(value)) {
    throw invalidArgument("servicePrincipal", `must be one of ${SERVICE_PRINCIPALS.join(", ")}`);
  }
  return value as ServicePrincipal;
}

/**
 * The relationship of a create body (6.1): exactly one kind; none reads as an empty
 * `claimMatch` (first error `claimMatch.issuer: is required`), a second one is refused
 * naming it.
 */
export function parseRelationship(body: JsonObject, nowMs: number): Relationship {
  const present = IDENTITY_KINDS.filter((kind) => isSet(body[kind]));
  if (present.length > 1) {
    throw invalidArgument(present[1], `only one of ${IDENTITY_KINDS.join(", ")} may be set`);
  }
  return parseKind(present[0] ?? "claimMatch", body[present[0] ?? "claimMatch"], {
    nowMs,
    expirationWritten: true,
  });
}

export function parseKind(
  kind: IdentityKind,
  value: unknown,
  options: StaticKeysOptions,
): Relationship {
  switch (kind) {
    case "claimMatch":
      return { claimMatch: parseClaimMatch(value) };
    case "staticKeys":
      return { staticKeys: parseStaticKeys(value, options) };
    case "awsIdentity":
      return { awsIdentity: parseAwsIdentity(value) };
    case "servicePrincipal":
      return { servicePrincipal: parseServicePrincipal(value) };
  }
}
