/**
 * `/iam/v2beta1/identities`: principals of four kinds (`claimMatch`, `staticKeys`,
 * `awsIdentity`, `servicePrincipal`), exactly one per identity. The reader checks
 * that one kind is present and that its one-of pairs hold, so a caller can rely on
 * `issuer ?? issuerPattern` being set.
 */
import { WritableCollection } from "../core/collection";
import type { ApiRequester, QueryValue } from "../core/resource";
import { listQuery } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import type {
  AwsIdentity,
  ClaimMatch,
  Identity,
  IdentityCreate,
  IdentityListParams,
  IdentityMaskPath,
  IdentityUpdate,
  RelationshipType,
  ServicePrincipal,
  ServicePrincipalName,
  StaticKeys,
} from "../types";
import { boundedString, checkEnum, readPair, stringMap } from "./decode";

/** The short names, in the order of the addendum (6.5). */
export const SERVICE_PRINCIPAL_NAMES: readonly ServicePrincipalName[] = [
  "COSIGNED",
  "INGESTER",
  "CATALOG_SYNCER",
  "APKO_BUILDER",
  "ENTITLEMENT_SYNCER",
  "TENANT_SCANNER",
  "SEDIMENTOLOGY",
  "SKILLUP",
  "MATERIALIZER",
  "MICROFLOW",
  "GUARDENER",
  "MICROVM",
  "SKILLS",
];

/** The 13 full names (`SERVICE_PRINCIPAL_INGESTER`, ...). */
export const SERVICE_PRINCIPALS: readonly ServicePrincipal[] = SERVICE_PRINCIPAL_NAMES.map(
  (name) => `SERVICE_PRINCIPAL_${name}` as const,
);

export const RELATIONSHIP_TYPES: readonly RelationshipType[] = [
  "RELATIONSHIP_TYPE_UNSPECIFIED",
  "RELATIONSHIP_TYPE_CLAIM_MATCH",
  "RELATIONSHIP_TYPE_STATIC",
  "RELATIONSHIP_TYPE_AWS_IDENTITY",
  "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL",
];

/**
 * The member of each kind of identity, exactly one of which an identity carries, in
 * the order the service checks them. The provider's inputs and state use the same.
 */
export const IDENTITY_KINDS = [
  "claimMatch",
  "staticKeys",
  "awsIdentity",
  "servicePrincipal",
] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

const KIND_OF_TYPE: Record<
  Exclude<RelationshipType, "RELATIONSHIP_TYPE_UNSPECIFIED">,
  IdentityKind
> = {
  RELATIONSHIP_TYPE_CLAIM_MATCH: "claimMatch",
  RELATIONSHIP_TYPE_STATIC: "staticKeys",
  RELATIONSHIP_TYPE_AWS_IDENTITY: "awsIdentity",
  RELATIONSHIP_TYPE_SERVICE_PRINCIPAL: "servicePrincipal",
};

/**
 * The kind member an identity carries (`claimMatch`, `staticKeys`, ...): of an answer,
 * or of anything shaped like one (the provider's inputs and state).
 */
export function identityKind(
  identity: Readonly<Partial<Record<IdentityKind, unknown>>>,
): IdentityKind | undefined {
  return IDENTITY_KINDS.find((kind) => identity[kind] !== undefined);
}

/** Largest `issuerKeys` document the service stores. */
const MAX_ISSUER_KEYS = 65_536;

function decodeClaimMatch(r: ShapeReader): ClaimMatch {
  const claimMatch: ClaimMatch = {
    ...readPair(r, "issuer", "issuerPattern", true),
    ...readPair(r, "subject", "subjectPattern", true),
    ...readPair(r, "audience", "audiencePattern", false),
  };
  const claims = stringMap(r, "claims");
  if (Object.keys(claims).length > 0) claimMatch.claims = claims;
  const claimPatterns = stringMap(r, "claimPatterns");
  if (Object.keys(claimPatterns).length > 0) claimMatch.claimPatterns = claimPatterns;
  return claimMatch;
}

function decodeStaticKeys(r: ShapeReader): StaticKeys {
  return {
    issuer: r.string("issuer"),
    subject: r.string("subject"),
    issuerKeys: boundedString(r, "issuerKeys", MAX_ISSUER_KEYS),
    expirationTime: r.timestamp("expirationTime"),
    audiences: r.stringArray("audiences"),
  };
}

function decodeAwsIdentity(r: ShapeReader): AwsIdentity {
  return {
    awsAccount: r.string("awsAccount"),
    ...readPair(r, "arn", "arnPattern", true),
    ...readPair(r, "userId", "userIdPattern", true),
  };
}

/** Present: neither absent, `null` nor `""`. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

export function decodeIdentity(raw: unknown, at = "identity"): Identity {
  const r = ShapeReader.of(raw, at);
  const kinds = IDENTITY_KINDS.filter((kind) => present(r.raw[kind]));
  if (kinds.length !== 1) {
    const found = kinds.length === 0 ? "none" : kinds.join(" and ");
    throw new ShapeError(
      at,
      `expected exactly one of claimMatch, staticKeys, awsIdentity, servicePrincipal, got ${found}`,
    );
  }
  const identity: Identity = {
    uid: r.string("uid"),
    name: r.string("name"),
    description: r.optionalString("description", ""),
    createTime: r.timestamp("createTime"),
    updateTime: r.timestamp("updateTime"),
  };
  switch (kinds[0]) {
    case "claimMatch":
      identity.claimMatch = decodeClaimMatch(r.object("claimMatch"));
      break;
    case "staticKeys":
      identity.staticKeys = decodeStaticKeys(r.object("staticKeys"));
      break;
    case "awsIdentity":
      identity.awsIdentity = decodeAwsIdentity(r.object("awsIdentity"));
      break;
    case "servicePrincipal":
      identity.servicePrincipal = checkEnum(
        r.string("servicePrincipal"),
        `${at}.servicePrincipal`,
        SERVICE_PRINCIPALS,
      );
      break;
  }
  const lastSeenTime = r.optionalTimestamp("lastSeenTime");
  if (lastSeenTime !== undefined) identity.lastSeenTime = lastSeenTime;
  return identity;
}

/** `/iam/v2beta1/identities`: principals assumed by matching OIDC claims, static keys, AWS, or platform services. */
export class Identities extends WritableCollection<
  Identity,
  IdentityCreate,
  IdentityUpdate,
  IdentityMaskPath,
  IdentityListParams
> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/iam/v2beta1/identities",
      listKey: "identities",
      noun: "identity",
      decode: decodeIdentity,
    });
  }

  protected override listQueryOf(params: IdentityListParams): Record<string, QueryValue> {
    return { ...listQuery(params), relationship_type: params.relationshipType };
  }

  protected override filterMismatch(item: Identity, params: IdentityListParams) {
    const type = params.relationshipType;
    if (type === undefined || type === "RELATIONSHIP_TYPE_UNSPECIFIED") return undefined;
    const wanted = KIND_OF_TYPE[type];
    if (wanted === undefined || item[wanted] !== undefined) return undefined;
    return {
      field: identityKind(item) ?? "uid",
      problem: `${item.uid} is not of kind ${wanted}, which the listing was filtered to (${type})`,
    };
  }
}
