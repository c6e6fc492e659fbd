/**
 * The four kinds of identity (addendum 6): what each accepts on a write, how it is
 * answered, how an update mask changes it, and which presented OIDC tokens it admits
 * at the token exchange. The identities collection and the exchange hold no rule of
 * their own about a kind: they call this module, so a write and an exchange can never
 * read a kind differently.
 *
 * An identity carries exactly one of `claimMatch`, `staticKeys`, `awsIdentity`,
 * `servicePrincipal` (the proto's `relationship` one-of). Stored records keep the
 * answered shape, so a record of an earlier version, `claimMatch: {issuer, subject}`,
 * is a valid `claimMatch` identity as it is.
 */
import { invalidArgument } from "./errors";
import { fullMatch, requirePattern } from "./patterns";
import { type ApiRequest, type JsonObject, updatePaths } from "./requests";

// ---------------------------------------------------------------- shapes

/** Token-claim conditions. Each pair has one member set; `audience` and its pattern may both be unset. */
export interface ClaimMatch {
  issuer?: string;
  issuerPattern?: string;
  /** `*` admits any subject (the built-in identity every user may assume). */
  subject?: string;
  subjectPattern?: string;
  audience?: string;
  audiencePattern?: string;
  /** Claim name to exact value; absent when empty. */
  claims?: Record<string, string>;
  /** Claim name to RE2 pattern; absent when empty. */
  claimPatterns?: Record<string, string>;
}

/** Keys registered with the identity, for issuers that cannot be reached. */
export interface StaticKeys {
  issuer: string;
  subject: string;
  /** A JWKS document, as a string, holding public keys only. */
  issuerKeys: string;
  /** RFC 3339, milliseconds, `Z`. */
  expirationTime: string;
  /** Empty or exactly one audience. */
  audiences: string[];
}

/** An AWS principal; the emulator checks it through the test issuer's `aws` claim. */
export interface AwsIdentity {
  awsAccount: string;
  arn?: string;
  arnPattern?: string;
  userId?: string;
  userIdPattern?: string;
}

export const SERVICE_PRINCIPALS = [
  "SERVICE_PRINCIPAL_COSIGNED",
  "SERVICE_PRINCIPAL_INGESTER",
  "SERVICE_PRINCIPAL_CATALOG_SYNCER",
  "SERVICE_PRINCIPAL_APKO_BUILDER",
  "SERVICE_PRINCIPAL_ENTITLEMENT_SYNCER",
  "SERVICE_PRINCIPAL_TENANT_SCANNER",
  "SERVICE_PRINCIPAL_SEDIMENTOLOGY",
  "SERVICE_PRINCIPAL_SKILLUP",
  "SERVICE_PRINCIPAL_MATERIALIZER",
  "SERVICE_PRINCIPAL_MICROFLOW",
  "SERVICE_PRINCIPAL_GUARDENER",
  "SERVICE_PRINCIPAL_MICROVM",
  "SERVICE_PRINCIPAL_SKILLS",
] as const;
export type ServicePrincipal = (typeof SERVICE_PRINCIPALS)[number];

/** The relationship of an identity: exactly one member is set. */
export interface Relationship {
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeys;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: ServicePrincipal;
}

/** The one-of members, in the order the addendum checks them. */
export const IDENTITY_KINDS = [
  "claimMatch",
  "staticKeys",
  "awsIdentity",
  "servicePrincipal",
] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** The kind of a stored relationship (a record without any member reads as `claimMatch`). */
export function kindOf(relationship: Relationship): IdentityKind {
  return IDENTITY_KINDS.find((kind) => relationship[kind] !== undefined) ?? "claimMatch";
}

/** The relationship members of `record` alone (a record also carries name, uid, times). */
export function relationshipOf(record: Relationship): Relationship {
  const kind = kindOf(record);
  return { [kind]: record[kind] } as Relationship;
}

/** Names a token claim may not be matched through the maps: dedicated members and the verification cover them. */
export const RESERVED_CLAIMS: readonly string[] = ["iss", "sub", "aud", "exp", "nbf", "iat"];

/** `staticKeys.issuerKeys` is at most this many characters. */
export const MAX_ISSUER_KEYS_LENGTH = 65_536;

/** Default and longest lifetime of static keys (addendum 6.3, decision 13). */
export const STATIC_KEYS_MAX_LIFETIME_MS = 365 * 24 * 3600 * 1000;

// ---------------------------------------------------------------- reading a body

/** A member that counts as set: present, not null, and for strings not empty. */
function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** An optional string member: `undefined` when unset (absent, null or ""), an error for another type. */
function stringMember(object: JsonObject, key: string, field: string): string | undefined {
  const value = object[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidArgument(field, "must be a string");
  return value === "" ? undefined : value;
}

function objectValue(value: unknown, field: string): JsonObject {
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
  const out: Record<string, string> = {};
  for (const name of names) {
    if (name === "") throw invalidArgument(field, "a claim name must not be empty");
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

function parseKind(kind: IdentityKind, value: unknown, options: StaticKeysOptions): Relationship {
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

// ---------------------------------------------------------------- answers

/**
 * The relationship as responses show it (6.7): only the key of the identity's kind;
 * in `claimMatch` only the members set (`claims`, `claimPatterns` when non-empty), so
 * an exact-match identity keeps its shape `{issuer, subject}`; `staticKeys` whole;
 * `awsIdentity` with `awsAccount` and the member set of each pair.
 */
export function relationshipOut(record: Relationship): JsonObject {
  const kind = kindOf(record);
  switch (kind) {
    case "claimMatch": {
      const match = record.claimMatch ?? {};
      const out: JsonObject = {};
      for (const key of [
        "issuer",
        "issuerPattern",
        "subject",
        "subjectPattern",
        "audience",
        "audiencePattern",
      ] as const) {
        if (match[key]) out[key] = match[key];
      }
      if (match.claims && Object.keys(match.claims).length > 0) out.claims = { ...match.claims };
      if (match.claimPatterns && Object.keys(match.claimPatterns).length > 0) {
        out.claimPatterns = { ...match.claimPatterns };
      }
      return { claimMatch: out };
    }
    case "staticKeys": {
      const keys = record.staticKeys as StaticKeys;
      return {
        staticKeys: {
          issuer: keys.issuer,
          subject: keys.subject,
          issuerKeys: keys.issuerKeys,
          expirationTime: keys.expirationTime,
          audiences: [...(keys.audiences ?? [])],
        },
      };
    }
    case "awsIdentity": {
      const aws = record.awsIdentity as AwsIdentity;
      const out: JsonObject = { awsAccount: aws.awsAccount };
      for (const key of ["arn", "arnPattern", "userId", "userIdPattern"] as const) {
        if (aws[key]) out[key] = aws[key];
      }
      return { awsIdentity: out };
    }
    case "servicePrincipal":
      return { servicePrincipal: record.servicePrincipal };
  }
}

/**
 * The `issuer` and `subject` a role binding shows of its identity (6.7): the exact
 * values of `claimMatch` or `staticKeys`, `""` for a pattern and for the other kinds.
 */
export function bindingIssuerSubject(record: Relationship): { issuer: string; subject: string } {
  if (record.staticKeys) {
    return { issuer: record.staticKeys.issuer, subject: record.staticKeys.subject };
  }
  if (record.claimMatch && kindOf(record) === "claimMatch") {
    return { issuer: record.claimMatch.issuer ?? "", subject: record.claimMatch.subject ?? "" };
  }
  return { issuer: "", subject: "" };
}

// ---------------------------------------------------------------- updates

/** Every update mask path of an identity (6.8). */
export const IDENTITY_MASK_PATHS: readonly string[] = [
  "name",
  "description",
  "claimMatch",
  "claimMatch.issuer",
  "claimMatch.issuerPattern",
  "claimMatch.subject",
  "claimMatch.subjectPattern",
  "claimMatch.audience",
  "claimMatch.audiencePattern",
  "claimMatch.claims",
  "claimMatch.claimPatterns",
  "staticKeys",
  "staticKeys.issuer",
  "staticKeys.subject",
  "staticKeys.issuerKeys",
  "staticKeys.expirationTime",
  "staticKeys.audiences",
  "awsIdentity",
  "awsIdentity.awsAccount",
  "awsIdentity.arn",
  "awsIdentity.arnPattern",
  "awsIdentity.userId",
  "awsIdentity.userIdPattern",
  "servicePrincipal",
];

/** The pairs whose members exclude each other, per kind. */
const PAIRS: Record<IdentityKind, ReadonlyArray<readonly [string, string]>> = {
  claimMatch: [
    ["issuer", "issuerPattern"],
    ["subject", "subjectPattern"],
    ["audience", "audiencePattern"],
  ],
  staticKeys: [],
  awsIdentity: [
    ["arn", "arnPattern"],
    ["userId", "userIdPattern"],
  ],
  servicePrincipal: [],
};

/**
 * The paths a PATCH applies (6.8). With `updateMask`, its paths, where `*` stands for
 * `name`, `description` and the object of the identity's current kind; without, the
 * paths present in the body, nested objects counting through the members they carry.
 * Then, in this order: a path of another kind, or another `servicePrincipal`, is
 * refused (the kind is fixed at create); a body setting both members of a pair under
 * the applied paths is refused on the pattern member.
 */
export function identityUpdatePaths(
  request: ApiRequest,
  body: JsonObject,
  current: Relationship,
): string[] {
  const kind = kindOf(current);
  const { paths } = updatePaths(request, body, IDENTITY_MASK_PATHS, ["name", "description", kind]);
  for (const path of paths) {
    const head = path.split(".")[0];
    if (!(IDENTITY_KINDS as readonly string[]).includes(head) || head === kind) continue;
    throw invalidArgument(path, "the relationship kind cannot change; create a new identity");
  }
  if (paths.includes("servicePrincipal") && kind === "servicePrincipal") {
    const value = body.servicePrincipal;
    if (value !== current.servicePrincipal) {
      throw invalidArgument(
        "servicePrincipal",
        "the relationship kind cannot change; create a new identity",
      );
    }
  }
  const members = PAIRS[kind].length > 0 ? objectValue(body[kind], kind) : {};
  for (const [exact, pattern] of PAIRS[kind]) {
    if (
      paths.includes(`${kind}.${exact}`) &&
      paths.includes(`${kind}.${pattern}`) &&
      isSet(members[exact]) &&
      isSet(members[pattern])
    ) {
      throw invalidArgument(
        `${kind}.${pattern}`,
        `only one of ${kind}.${exact} and ${kind}.${pattern} may be set`,
      );
    }
  }
  return paths;
}

/**
 * The relationship after applying `paths` (from {@link identityUpdatePaths}) of `body`
 * to `current`, validated whole. The kind's object named whole is replaced by the
 * body's; a member named alone takes the body's value, where setting one member of a
 * pair clears its partner and an empty or absent value clears the member; maps are
 * replaced whole. `expirationTime` is range-checked only when this update writes it.
 */
export function applyRelationshipUpdate(
  current: Relationship,
  body: JsonObject,
  paths: readonly string[],
  nowMs: number,
): Relationship {
  const kind = kindOf(current);
  if (kind === "servicePrincipal") return { servicePrincipal: current.servicePrincipal };
  const whole = paths.includes(kind);
  const members = paths.filter((path) => path.startsWith(`${kind}.`));
  if (!whole && members.length === 0) return relationshipOf(current);
  const given = objectValue(body[kind], kind);
  const next: JsonObject = whole ? { ...given } : { ...(current[kind] as object) };
  let expirationWritten = whole;
  if (!whole) {
    for (const path of members) {
      const member = path.slice(kind.length + 1);
      const value = given[member];
      if (member === "expirationTime") expirationWritten = true;
      if (value === undefined || value === null || value === "") {
        delete next[member];
        continue;
      }
      next[member] = value;
      const pair = PAIRS[kind].find((candidate) => candidate.includes(member));
      if (pair && typeof value === "string") {
        const partner = pair[0] === member ? pair[1] : pair[0];
        if (!members.includes(`${kind}.${partner}`)) delete next[partner];
      }
    }
  }
  return parseKind(kind, next, { nowMs, expirationWritten });
}

// ---------------------------------------------------------------- list filter

const RELATIONSHIP_TYPES: Record<string, IdentityKind | undefined> = {
  RELATIONSHIP_TYPE_UNSPECIFIED: undefined,
  RELATIONSHIP_TYPE_CLAIM_MATCH: "claimMatch",
  RELATIONSHIP_TYPE_STATIC: "staticKeys",
  RELATIONSHIP_TYPE_AWS_IDENTITY: "awsIdentity",
  RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: "servicePrincipal",
};

/**
 * The `relationship_type` (alias `relationshipType`) list filter (6.9): the kind it
 * selects, or undefined for every kind (no value, or `RELATIONSHIP_TYPE_UNSPECIFIED`).
 */
export function relationshipTypeFilter(query: URLSearchParams): IdentityKind | undefined {
  const raw = query.get("relationship_type") ?? query.get("relationshipType");
  if (raw === null || raw === "") return undefined;
  if (!Object.hasOwn(RELATIONSHIP_TYPES, raw)) {
    throw invalidArgument(
      "relationship_type",
      `must be one of ${Object.keys(RELATIONSHIP_TYPES).join(", ")}`,
    );
  }
  return RELATIONSHIP_TYPES[raw];
}

// ---------------------------------------------------------------- token exchange

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
        if (claimText(payload[name]) !== expected) return `claim "${name}"`;
      }
      for (const [name, pattern] of Object.entries(match.claimPatterns ?? {})) {
        const text = claimText(payload[name]);
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
