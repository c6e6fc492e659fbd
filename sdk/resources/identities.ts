/**
 * `/iam/v2beta1/identities`: principals of four kinds (`claimMatch`, `staticKeys`,
 * `awsIdentity`, `servicePrincipal`), exactly one per identity. The reader checks
 * that one kind is present and that its one-of pairs hold, so a caller can rely on
 * `issuer ?? issuerPattern` being set.
 */
import { WritableCollection } from "../core/collection";
import type { ListParams, Timestamp } from "../core/common-types";
import type { ApiRequester, QueryValue } from "../core/resource";
import { listQuery } from "../core/resource";
import { ShapeError, ShapeReader } from "../core/shape";
import { boundedString, checkEnum, readPair, stringMap } from "./decode";
import { MAX_ISSUER_KEYS_LENGTH } from "./identity-bounds";

/**
 * `claimMatch` of an identity: which OIDC tokens may assume it. Each pair has an
 * exact member and an RE2 pattern (matched against the whole value): exactly one
 * of `issuer` / `issuerPattern` and of `subject` / `subjectPattern`, at most one
 * of `audience` / `audiencePattern`. Answers carry only the members that are set,
 * so an exact match reads `{ issuer, subject }`.
 */
export interface ClaimMatch {
  /** The token issuer: an `https` URL (`http` only on loopback, for the emulator). */
  issuer?: string;
  /** RE2 pattern the token's `iss` must fully match, instead of `issuer`. */
  issuerPattern?: string;
  /** The token subject to match; `*` matches any subject of the issuer. */
  subject?: string;
  /**
   * RE2 pattern the token's `sub` must fully match, instead of `subject`, e.g.
   * `repo:acme/infra:ref:refs/heads/(main|release-.*)`.
   */
  subjectPattern?: string;
  /**
   * An element of the token's `aud` must equal it. With neither audience member, the
   * token must be meant for the API itself (its base URL).
   */
  audience?: string;
  /** RE2 pattern an element of the token's `aud` must fully match, instead of `audience`. */
  audiencePattern?: string;
  /**
   * Claims the token must carry with exactly these values (a number or boolean claim
   * compares as its JSON text). Not `iss`, `sub`, `aud`, `exp`, `nbf`, `iat`. Replaced
   * whole; left out of answers when empty.
   */
  claims?: Record<string, string>;
  /** Claims whose values must fully match these RE2 patterns. Replaced whole; left out of answers when empty. */
  claimPatterns?: Record<string, string>;
}

/** `staticKeys` of an identity: tokens of an issuer that cannot be reached, checked against keys registered here. */
export interface StaticKeys {
  /** Absolute http(s) URL; the token's `iss` must equal it. */
  issuer: string;
  /** The token's `sub` must equal it. */
  subject: string;
  /** A JWKS document (`{"keys":[...]}`) as a string: public keys only, at most 65,536 characters. */
  issuerKeys: string;
  /** After it, the exchange refuses the identity; the service defaults it to creation + 365 days. */
  expirationTime: Timestamp;
  /** Empty, or exactly one audience the token's `aud` must contain. */
  audiences: string[];
}

/** `staticKeys` as sent: `expirationTime` and `audiences` may be left to the service. */
export interface StaticKeysCreate {
  issuer: string;
  subject: string;
  issuerKeys: string;
  /** Later than now, at most now + 365 days; the service's default is creation + 365 days. */
  expirationTime?: Timestamp;
  audiences?: string[];
}

/** `awsIdentity` of an identity: an AWS role or user, by GetCallerIdentity's answer. */
export interface AwsIdentity {
  /** The AWS account id: 12 digits. */
  awsAccount: string;
  /** The caller's ARN, exactly. Exactly one of `arn` / `arnPattern`. */
  arn?: string;
  /** RE2 pattern the caller's ARN must fully match. */
  arnPattern?: string;
  /** The caller's user id, exactly. Exactly one of `userId` / `userIdPattern`. */
  userId?: string;
  /** RE2 pattern the caller's user id must fully match. */
  userIdPattern?: string;
}

/** Short names of the platform's services; account associations key `serviceBindings` by them. */
export type ServicePrincipalName =
  | "COSIGNED"
  | "INGESTER"
  | "CATALOG_SYNCER"
  | "APKO_BUILDER"
  | "ENTITLEMENT_SYNCER"
  | "TENANT_SCANNER"
  | "SEDIMENTOLOGY"
  | "SKILLUP"
  | "MATERIALIZER"
  | "MICROFLOW"
  | "GUARDENER"
  | "MICROVM"
  | "SKILLS";

/** A platform service an identity stands for (assumed only by that service, never by token exchange). */
export type ServicePrincipal = `SERVICE_PRINCIPAL_${ServicePrincipalName}`;

/** The `relationship_type` filter of identity lists; `UNSPECIFIED` matches every kind. */
export type RelationshipType =
  | "RELATIONSHIP_TYPE_UNSPECIFIED"
  | "RELATIONSHIP_TYPE_CLAIM_MATCH"
  | "RELATIONSHIP_TYPE_STATIC"
  | "RELATIONSHIP_TYPE_AWS_IDENTITY"
  | "RELATIONSHIP_TYPE_SERVICE_PRINCIPAL";

/**
 * An identity carries exactly one kind of relationship: `claimMatch`,
 * `staticKeys`, `awsIdentity` or `servicePrincipal` (the others are absent).
 */
export interface Identity {
  uid: string;
  name: string;
  description: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeys;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: ServicePrincipal;
  /** Set by the service; absent until the identity is first used. */
  lastSeenTime?: Timestamp;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/** Exactly one of `claimMatch`, `staticKeys`, `awsIdentity`, `servicePrincipal`; the kind never changes afterwards. */
export interface IdentityCreate {
  /** Must match `^[a-z0-9 ._-]{1,}$`, 3 to 63 characters. */
  name: string;
  description?: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeysCreate;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: ServicePrincipal;
}

/**
 * Members of the identity's own kind only (another kind is INVALID_ARGUMENT).
 * Setting a pair member clears its partner; an empty string clears a member.
 */
export interface IdentityUpdate {
  name?: string;
  description?: string;
  claimMatch?: ClaimMatch;
  staticKeys?: Partial<StaticKeysCreate>;
  awsIdentity?: Partial<AwsIdentity>;
  /** Only the identity's own value (restating it does nothing). */
  servicePrincipal?: ServicePrincipal;
}

/**
 * Update-mask paths of an identity: the proto field names (snake_case), which the
 * gateway passes to the service as they are.
 */
export type IdentityMaskPath =
  | "name"
  | "description"
  | "claim_match"
  | "claim_match.issuer"
  | "claim_match.issuer_pattern"
  | "claim_match.subject"
  | "claim_match.subject_pattern"
  | "claim_match.audience"
  | "claim_match.audience_pattern"
  | "claim_match.claims"
  | "claim_match.claim_patterns"
  | "static_keys"
  | "static_keys.issuer"
  | "static_keys.subject"
  | "static_keys.issuer_keys"
  | "static_keys.expiration_time"
  | "static_keys.audiences"
  | "aws_identity"
  | "aws_identity.aws_account"
  | "aws_identity.arn"
  | "aws_identity.arn_pattern"
  | "aws_identity.user_id"
  | "aws_identity.user_id_pattern"
  | "service_principal"
  | "*";

export interface IdentityListParams extends ListParams {
  /** `relationship_type`: only identities of this kind (`UNSPECIFIED`: every kind). */
  relationshipType?: RelationshipType;
}

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
    issuerKeys: boundedString(r, "issuerKeys", MAX_ISSUER_KEYS_LENGTH),
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
  r.copyTimestamps(identity, "lastSeenTime");
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
