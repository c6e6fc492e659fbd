/**
 * The four kinds of identity (addendum 6), as stored and answered: an identity carries
 * exactly one of `claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal` (the
 * proto's `relationship` one-of). Stored records keep the answered shape, so a record of
 * an earlier version, `claimMatch: {issuer, subject}`, is a valid `claimMatch` identity
 * as it is. The other modules of this folder read a write (`parse.ts`), apply an update
 * mask (`masks.ts`), answer a kind (`answers.ts`) and match a presented token at the
 * exchange (`exchange-match.ts`); the identities collection and the exchange hold no
 * rule of their own about a kind, so a write and an exchange never read one differently.
 */
import { invalidArgument } from "../errors";

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

/**
 * Entries a `claims` or `claimPatterns` map may hold: with each pattern's program
 * bounded (`MAX_PATTERN_COST`), this bounds the work of one write and one exchange.
 */
export const MAX_CLAIM_ENTRIES = 32;

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
