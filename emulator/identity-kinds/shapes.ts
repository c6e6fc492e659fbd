/**
 * The four kinds of identity (addendum 6), as stored and answered: an identity carries
 * exactly one of `claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal` (the
 * proto's `relationship` one-of). Stored records keep the answered shape, so a record of
 * an earlier version, `claimMatch: {issuer, subject}`, is a valid `claimMatch` identity
 * as it is. The other modules of this folder read a write (`parse.ts`), apply an update
 * mask (`masks.ts`), answer a kind (`answers.ts`) and match a presented token at the
 * exchange (`exchange-match.ts`); the identities collection and the exchange hold no
 * rule of their own about a kind, so a write and an exchange never read one differently.
 *
 * The members' wire shapes, the kinds and the service principals are the published
 * definitions', and the bounds the service's: the SDK states them once (the contract
 * suite checks its tables), and this folder decides what a write may be.
 */
import type {
  AwsIdentity,
  ClaimMatch,
  IdentityKind,
  ServicePrincipal,
  StaticKeys,
} from "../../sdk/resources/identities";
import { IDENTITY_KINDS } from "../../sdk/resources/identities";
import { invalidArgument } from "../errors";

export { IDENTITY_KINDS, SERVICE_PRINCIPALS } from "../../sdk/resources/identities";
export { MAX_CLAIM_ENTRIES, MAX_ISSUER_KEYS_LENGTH } from "../../sdk/resources/identity-bounds";
export type { AwsIdentity, ClaimMatch, IdentityKind, ServicePrincipal, StaticKeys };

/** The relationship of an identity: exactly one member is set. */
export interface Relationship {
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeys;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: ServicePrincipal;
}

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

/** Default and longest lifetime of static keys (addendum 6.3, decision 13). */
export const STATIC_KEYS_MAX_LIFETIME_MS = 365 * 24 * 3600 * 1000;

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
