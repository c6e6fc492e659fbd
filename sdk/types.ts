/**
 * Public resource types of the Identity and Registry Management API v2beta1.
 *
 * Field names are the specification's. Int64 counters, which the wire carries as
 * JSON strings, are converted to numbers by the SDK. Fields the specification does
 * not show (registry and advisory details) are optional: the SDK passes through
 * whatever the service returns.
 */

import type { Capability } from "./capabilities";

/** ISO 8601 timestamp with milliseconds and a `Z` suffix. */
export type Timestamp = string;

export interface Group {
  uid: string;
  name: string;
  description: string;
  /** May be empty; v1 output holds integer members `clusters`, `idps`, `repositories`. */
  resourceLimits: Record<string, number>;
  /** False on newly created groups. */
  verified: boolean;
  createTime: Timestamp;
  updateTime: Timestamp;
}

export interface GroupCreate {
  /** Must match `^[a-z0-9 ._-]{1,}$`. */
  name: string;
  description?: string;
}

export type GroupUpdate = Partial<Pick<Group, "name" | "description">>;
/** Update-mask paths of a group (proto field names). */
export type GroupMaskPath = "name" | "description" | "*";

/**
 * `claimMatch` of an identity: which OIDC tokens may assume it. Each pair has an
 * exact member and an RE2 pattern (matched against the whole value): exactly one
 * of `issuer` / `issuerPattern` and of `subject` / `subjectPattern`, at most one
 * of `audience` / `audiencePattern`. Answers carry only the members that are set,
 * so an exact match reads `{ issuer, subject }`.
 */
export interface ClaimMatch {
  /** URL of the OIDC token issuer. */
  issuer?: string;
  /** RE2 pattern the token's `iss` must fully match. */
  issuerPattern?: string;
  /** The token subject to match (`*` matches any subject of that issuer). */
  subject?: string;
  /** RE2 pattern the token's `sub` must fully match. */
  subjectPattern?: string;
  /** An element of the token's `aud` must equal it; with neither audience member, `{base_url}`. */
  audience?: string;
  /** RE2 pattern an element of the token's `aud` must fully match. */
  audiencePattern?: string;
  /** Claim name to exact value; left out of answers when empty. */
  claims?: Record<string, string>;
  /** Claim name to RE2 pattern; left out of answers when empty. */
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
  /** 12 digits. */
  awsAccount: string;
  /** Exactly one of `arn` / `arnPattern`. */
  arn?: string;
  arnPattern?: string;
  /** Exactly one of `userId` / `userIdPattern`. */
  userId?: string;
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

/** A capability: a value name of the platform's `Capability` enum (`CAP_IAM_GROUPS_CREATE`). */
export type { Capability };

/**
 * A role: built-in (`owner`, `editor`, `viewer`, `registry.pull`; a flat uid of 40 hex)
 * or a custom role of a group (uid `<group uid>/<16 hex>`). `isBuiltInRoleUid` and
 * `roleGroupUid` tell them apart.
 */
export interface Role {
  uid: string;
  name: string;
  description: string;
  /** Enum value names, e.g. `CAP_IAM_GROUPS_CREATE`; a set (the order is not stated). */
  capabilities: CapabilityName[];
  createTime: Timestamp;
  updateTime: Timestamp;
}

/**
 * Names a capability: one of `Capability`; any other string is the service's to judge
 * (answers may carry values newer than this SDK's list).
 */
export type CapabilityName = Capability | (string & Record<never, never>);

/**
 * A custom role of a group, usable in that group and the groups below it. The
 * name may not be a built-in role's (`owner`, `editor`, `viewer`,
 * `registry.pull`); at least one capability is required, and only capabilities
 * the caller holds on the group may be given.
 */
export interface RoleCreate {
  name: string;
  description?: string;
  /** At least one; a set (repeats are dropped). */
  capabilities: readonly CapabilityName[];
}

/** An update may not leave `capabilities` empty. */
export interface RoleUpdate {
  name?: string;
  description?: string;
  capabilities?: readonly CapabilityName[];
}
/** Update-mask paths of a role (proto field names). */
export type RoleMaskPath = "name" | "description" | "capabilities" | "*";

/** The identity as hydrated inside a role binding. */
export interface RoleBindingIdentity {
  uid: string;
  name: string;
  description: string;
  /** The exact `claimMatch.subject` or `staticKeys.subject`; `""` for a pattern and the other kinds. */
  subject: string;
  /** The exact `claimMatch.issuer` or `staticKeys.issuer`; `""` for a pattern and the other kinds. */
  issuer: string;
}

/** A group or role as hydrated inside a role binding. */
export interface RoleBindingRef {
  uid: string;
  name: string;
  description: string;
}

export interface RoleBinding {
  uid: string;
  identity: RoleBindingIdentity;
  group: RoleBindingRef;
  role: RoleBindingRef;
  createTime: Timestamp;
  updateTime?: Timestamp;
}

export interface RoleBindingCreate {
  identityUid: string;
  roleUid: string;
}

export type RoleBindingUpdate = Partial<RoleBindingCreate>;
/** Update-mask paths of a role binding (proto field names). */
export type RoleBindingMaskPath = "identity_uid" | "role_uid" | "*";

/** `ListRoleBindingsRequest`'s filters: the `uidp` filter and these (no `name`). */
export interface RoleBindingListParams extends UidpFilter, PageParams {
  /** `identity`: only bindings of this identity (by uid). */
  identity?: string;
  /** `group`: only bindings in this group (by uid). */
  group?: string;
  /** `role`: only bindings of this role (by uid). */
  role?: string;
}

/** How a provider's identities are correlated with the tokens of its issuer; fixed at creation. */
export type CorrelationRule =
  | "CORRELATION_RULE_UNSPECIFIED"
  | "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"
  | "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID";

/** The OIDC configuration of an identity provider, as answered: never its client secret. */
export interface IdentityProviderOidc {
  /** Absolute http(s) URL. */
  issuer: string;
  clientId: string;
  /** Scopes requested besides `openid`, in order. */
  additionalScopes: string[];
  /** Name of the token claim carrying group memberships; `""` when unset. */
  groupsClaim: string;
  pkceEnabled: boolean;
  /** `UNSPECIFIED` behaves as `SUB_EQUALS_EXTERNAL_ID`. */
  correlationRule: CorrelationRule;
}

/** The OIDC configuration as sent. `clientSecret` is write-only: no answer ever carries it. */
export interface IdentityProviderOidcInput {
  issuer: string;
  clientId: string;
  /** Required at create unless `pkceEnabled` is true. The SDK never prints it. */
  clientSecret?: string;
  additionalScopes?: string[];
  groupsClaim?: string;
  pkceEnabled?: boolean;
  /** Immutable: an update may only restate it. */
  correlationRule?: CorrelationRule;
}

/** State of an identity provider's SCIM credential. */
export type ScimCredentialState =
  | "CREDENTIAL_STATE_UNSPECIFIED"
  | "CREDENTIAL_STATE_NOT_ISSUED"
  | "CREDENTIAL_STATE_LIVE"
  | "CREDENTIAL_STATE_EXPIRED"
  | "CREDENTIAL_STATE_REVOKED"
  | "CREDENTIAL_STATE_ROTATING";

/**
 * The SCIM status of an identity provider, output only (this package does not manage
 * SCIM). Lists may leave members out.
 */
export interface IdentityProviderScim {
  enabled: boolean;
  /** `""` when none. */
  endpointUrl: string;
  tokenExpireTime?: Timestamp;
  previousTokenExpireTime?: Timestamp;
  credentialState: ScimCredentialState;
  etag: string;
}

/** An external OIDC provider for sign-in (SSO) in a group; its uid is `<group uid>/<16 hex>`. */
export interface IdentityProvider {
  uid: string;
  /** 3 to 63 characters of the name pattern; not unique. */
  name: string;
  description: string;
  /** Uid of the role bound, in the provider's group, to a user on first sign-in. */
  defaultRole: string;
  oidc: IdentityProviderOidc;
  /** Present when the answer carries a SCIM status. */
  scim?: IdentityProviderScim;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/**
 * The caller must hold `identityProviders.create` and `roleBindings.create` on the
 * group, and every capability of `defaultRole`.
 */
export interface IdentityProviderCreate {
  name: string;
  description?: string;
  defaultRole: string;
  oidc: IdentityProviderOidcInput;
}

/**
 * Without a mask, the keys present change (`oidc` through the members it carries).
 * A non-empty `oidc.clientSecret` replaces the stored one; an empty one clears it
 * only when the path `oidc.clientSecret` is explicit, and only with PKCE.
 */
export interface IdentityProviderUpdate {
  name?: string;
  description?: string;
  defaultRole?: string;
  oidc?: Partial<IdentityProviderOidcInput>;
}

/** Update-mask paths of an identity provider (proto field names). */
export type IdentityProviderMaskPath =
  | "name"
  | "description"
  | "default_role"
  | "oidc"
  | "oidc.issuer"
  | "oidc.client_id"
  | "oidc.client_secret"
  | "oidc.additional_scopes"
  | "oidc.groups_claim"
  | "oidc.pkce_enabled"
  | "oidc.correlation_rule"
  | "*";

/** Scope filters and `name`, as for every collection. */
export type IdentityProviderListParams = ListParams;

/** The role of an invite, hydrated: capabilities as enum value names, a set. */
export interface GroupInviteRole {
  uid: string;
  name: string;
  description: string;
  capabilities: CapabilityName[];
}

/**
 * An invite to a group: whoever presents its code (as `email`, when set) gets a
 * binding to `roleUid` there. It never changes; after `expirationTime` it stays
 * listed until deleted, but can no longer be redeemed.
 */
export interface GroupInvite {
  /** `<group uid>/<16 hex>`. */
  uid: string;
  roleUid: string;
  /** Absent once the role is deleted (the invite stays). */
  role?: GroupInviteRole;
  /** The only address allowed to redeem; `""` = anyone who has the code. */
  email: string;
  expirationTime: Timestamp;
  singleUse: boolean;
  /** Opaque (no published format), unique per invite; `list({ keyId })` finds it. */
  keyId: string;
  createTime: Timestamp;
}

/**
 * The answer of a create: the only time the secret `code` is readable. `code` is
 * not enumerable: `JSON.stringify`, spreading and `console.log` leave it out (the
 * last shows `[REDACTED]`); read it as `invite.code`.
 */
export interface CreatedGroupInvite extends GroupInvite {
  readonly code: string;
}

/**
 * The caller must hold `groupInvites.create` and `roleBindings.create` on the
 * group, and every capability of the role.
 */
export interface GroupInviteCreate {
  /** A built-in role (40 hex), or a custom role of the group or one of its ancestors (`<group uid>/<16 hex>`). */
  roleUid: string;
  /** Lifetime: seconds (sent as `"<n>s"`) or a duration string such as `"3600s"`; 1 ms to 365 days. */
  ttl: string | number;
  email?: string;
  singleUse?: boolean;
}

/** `ListGroupInvitesRequest`'s filters: the `uidp` filter and `keyId` (no `name`). */
export interface GroupInviteListParams extends UidpFilter, PageParams {
  /** `key_id`: exact match on the invite's `keyId`. */
  keyId?: string;
}

export interface AmazonAccount {
  /** 12 digits. */
  account: string;
}

export interface GoogleProject {
  /** 6 to 30 characters: lowercase letter first, then letters, digits, `-`. */
  projectId: string;
  projectNumber: string;
}

export interface AzureTenant {
  /** A GUID. */
  tenantId: string;
  /** Component name to client id (a GUID); at least one. */
  clientIds: Record<string, string>;
}

export interface GitHubInstallation {
  /** A positive int64; the SDK hands out numbers and refuses an answer beyond `Number.MAX_SAFE_INTEGER`. */
  installationId: number;
  /** Informational; `""` when unset. */
  name: string;
}

export interface GitHubInstallations {
  /** GitHub App id (a positive int64 in decimal, kept as a string key) to its installations. */
  appInstallations: Record<string, { installations: GitHubInstallation[] }>;
}

/** A GitHub installation as sent: `installationId` a safe integer or its decimal string. */
export interface GitHubInstallationInput {
  installationId: number | string;
  name?: string;
}

export interface GitHubInstallationsInput {
  appInstallations: Record<string, { installations: GitHubInstallationInput[] }>;
}

export interface ChainguardBindings {
  /** Service (short name, e.g. `INGESTER`) to the uid of an identity directly in the group with that `servicePrincipal`. */
  serviceBindings: Partial<Record<ServicePrincipalName, string>>;
}

/**
 * A group's outside accounts, and the identities the platform's services assume
 * there. A group has at most one; its `uid` is the group's uid.
 */
export interface AccountAssociation {
  uid: string;
  name: string;
  description: string;
  amazon?: AmazonAccount;
  google?: GoogleProject;
  azure?: AzureTenant;
  github?: GitHubInstallations;
  chainguard?: ChainguardBindings;
  createTime: Timestamp;
  updateTime: Timestamp;
}

/** At least one of the five blocks. */
export interface AccountAssociationCreate {
  name: string;
  description?: string;
  amazon?: AmazonAccount;
  google?: GoogleProject;
  azure?: AzureTenant;
  github?: GitHubInstallationsInput;
  chainguard?: ChainguardBindings;
}

/**
 * Blocks are replaced whole. Without a mask, a block sent as `null` is removed;
 * with a mask, a named block absent from the body is removed (`*` removes every
 * absent one). At least one block must remain.
 */
export interface AccountAssociationUpdate {
  name?: string;
  description?: string;
  amazon?: AmazonAccount | null;
  google?: GoogleProject | null;
  azure?: AzureTenant | null;
  github?: GitHubInstallationsInput | null;
  chainguard?: ChainguardBindings | null;
}

/** Blocks only, no sub-paths (`google.projectId` is refused). */
export type AccountAssociationMaskPath =
  | "name"
  | "description"
  | "amazon"
  | "google"
  | "azure"
  | "github"
  | "chainguard"
  | "*";

/** Scope filters test the group's uid: `descendantsOf: X` lists the associations of groups strictly below X. */
export type AccountAssociationListParams = ListParams;

/** The catalog tier of a repository. */
export type CatalogTier =
  | "CATALOG_TIER_UNSPECIFIED"
  | "CATALOG_TIER_APPLICATION"
  | "CATALOG_TIER_BASE"
  | "CATALOG_TIER_FIPS"
  | "CATALOG_TIER_AI"
  | "CATALOG_TIER_DEVTOOLS"
  | "CATALOG_TIER_COMMERCIAL";

export interface Repo {
  uid: string;
  name: string;
  createTime: Timestamp;
  updateTime?: Timestamp;
  description?: string;
  /** Public repositories can be read without a token. */
  public?: boolean;
  catalogTier?: CatalogTier;
  aliases?: string[];
}

export interface Tag {
  uid: string;
  name: string;
  digest?: string;
  deprecated?: boolean;
  createTime?: Timestamp;
  updateTime?: Timestamp;
}

/** A severity score of an advisory's vulnerability. */
export interface AdvisorySeverity {
  /** `TYPE_CVSS_V2`, `TYPE_CVSS_V3`, `TYPE_CVSS_V4` (or `TYPE_UNSPECIFIED`). */
  type: "TYPE_UNSPECIFIED" | "TYPE_CVSS_V2" | "TYPE_CVSS_V3" | "TYPE_CVSS_V4";
  /** The score or vector as the service gives it. */
  score: string;
}

/** The members of an event's one-of `type`; each carries its own details. */
export type AdvisoryEventType =
  | "detection"
  | "fixed"
  | "falsePositiveDetermination"
  | "analysisNotPlanned"
  | "fixNotPlanned"
  | "pendingUpstreamFix"
  | "truePositiveDetermination"
  | "patched";

/**
 * One event of an advisory. Exactly one of the `AdvisoryEventType` members is set (an
 * object of details, passed through as the service gives it).
 */
export interface AdvisoryEvent extends Partial<Record<AdvisoryEventType, Record<string, unknown>>> {
  uid: string;
  createTime?: Timestamp;
  author: string;
  /** `""` when not reviewed. */
  reviewer: string;
  reviewState: ReviewState | (string & Record<never, never>);
  issue?: string;
  /** Raw findings (bytes, base64), when the service includes them. */
  findings?: string;
}

/**
 * A security advisory about one component of one artifact (package). There is no
 * package name or single severity: `artifactName` names the package, `severities`
 * (newer services only) the scores.
 */
export interface Advisory {
  uid: string;
  /** E.g. `CGA-xvgw-cvr7-9g2q`. */
  advisoryId: string;
  createTime?: Timestamp;
  updateTime?: Timestamp;
  /** Set once the advisory is withdrawn. */
  deleteTime?: Timestamp;
  author: string;
  artifactName: string;
  artifactType: string;
  artifactArchitecture: string;
  componentName: string;
  componentLocation: string;
  componentType: string;
  /** Vulnerability ids (CVE, GHSA, ...); `[]` when none. */
  aliases: string[];
  events: AdvisoryEvent[];
  legacyAdvisoryId?: string;
  /** Absent from services that do not yet give severities. */
  severities?: AdvisorySeverity[];
}

/** A group as the v1 listing returns it (`id` instead of `uid`, no timestamps). */
export interface V1Group {
  id: string;
  name: string;
  description: string;
  resourceLimits: { clusters?: number; idps?: number; repositories?: number };
  verified: boolean;
}

/** A repo as the v1 listing returns it; its shape is not specified, fields pass through. */
export interface V1Repo {
  id?: string;
  name?: string;
  [field: string]: unknown;
}

/** The v1 list envelope. */
export interface V1List<T> {
  items: T[];
}

/** The `uidp` filter every v2 List takes: where in the hierarchy the items sit. */
export interface UidpFilter {
  /** `uidp.ancestors_of`: only ancestors of this uid (reached going from child to parent). */
  ancestorsOf?: string;
  /** `uidp.descendants_of`: only descendants of this uid (the uid itself excluded). */
  descendantsOf?: string;
  /** `uidp.children_of`: only direct children of this uid. */
  childrenOf?: string;
  /** `uidp.in_root`: only root-level items (organisations, built-in roles). */
  inRoot?: boolean;
  /** `uidp.ids`: only the items of these exact uids (sent as the key repeated). */
  ids?: readonly string[];
}

/** Paging and order, common to every v2 List. */
export interface PageParams {
  /** 1..200; the service uses 50 when absent. Iterating with `for await` defaults to 200. */
  pageSize?: number;
  /** Opaque cursor from a previous page's `nextPageToken`. */
  pageToken?: string;
  /** One field, optionally followed by ` asc` or ` desc`: `uid`, `name`, `create_time`, `update_time`. */
  orderBy?: string;
  /** Number of results to skip before the page begins. */
  skip?: number;
}

/** Common parameters of every v2 List but advisories': the `uidp` filter, `name`, paging. */
export interface ListParams extends UidpFilter, PageParams {
  /** Exact-match filter on name. */
  name?: string;
}

/** `ListTagsRequest`'s own filters (tags of a repo: `childrenOf: <repo uid>`). */
export interface TagListParams extends ListParams {
  /** `digest`: only tags pointing at this digest (`sha256:...`). */
  digest?: string;
  /** `updated_since`: only tags updated at or after this time (RFC 3339). */
  updatedSince?: Timestamp;
}

/** Review states of an advisory event. */
export type ReviewState =
  | "REVIEW_STATE_UNSPECIFIED"
  | "REVIEW_STATE_PENDING"
  | "REVIEW_STATE_APPROVED"
  | "REVIEW_STATE_REQUEST_CHANGES"
  | "REVIEW_STATE_REJECTED";

/** Event types the advisory list filters on. */
export type EventTypeFilter =
  | "EVENT_TYPE_FILTER_UNSPECIFIED"
  | "EVENT_TYPE_FILTER_DETECTION"
  | "EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION"
  | "EVENT_TYPE_FILTER_FIXED"
  | "EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION"
  | "EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED"
  | "EVENT_TYPE_FILTER_FIX_NOT_PLANNED"
  | "EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX"
  | "EVENT_TYPE_FILTER_PATCHED";

/**
 * The filters of `ListAdvisoriesRequest`, in camelCase; each is sent under its proto
 * name (`artifactNames` as `artifact_names`, repeated keys for a list). Advisories
 * have no `name` filter: `advisoryIds` lists exact ids.
 */
export interface AdvisoryListParams extends UidpFilter, PageParams {
  /** Exact advisory ids (`CGA-...`). */
  advisoryIds?: readonly string[];
  /** Exact ids as migrated from the former advisory repositories. */
  legacyAdvisoryIds?: readonly string[];
  /** Exact artifact (package) names; ignored by the service when `origin` is set. */
  artifactNames?: readonly string[];
  artifactTypes?: readonly string[];
  /** Architectures, e.g. `x86_64`, `aarch64`. */
  artifactArchitectures?: readonly string[];
  /** Exact component names. */
  componentNames?: readonly string[];
  componentTypes?: readonly string[];
  componentLocations?: readonly string[];
  /** Vulnerability aliases (CVE, GHSA, ...). */
  aliases?: readonly string[];
  /** Every advisory of the packages (subpackages included) of this origin package. */
  origin?: string;
  /** Advisories with at least one event in one of these review states. */
  eventReviewStates?: readonly ReviewState[];
  /** Advisories with at least one event by one of these authors (emails). */
  eventAuthors?: readonly string[];
  /** Leaves out advisories with an event by one of these authors. */
  excludeEventAuthors?: readonly string[];
  /** Advisories with at least one event reviewed by one of these (emails). */
  eventReviewers?: readonly string[];
  /** Advisories with at least one event of one of these types. */
  eventTypes?: readonly EventTypeFilter[];
  /** Advisories whose latest approved event is of this type. */
  latestEventType?: EventTypeFilter;
  /** Free-text search. */
  query?: string;
}

/** One page of a v2 List. */
export interface Page<T> {
  items: T[];
  /** Absent when there are no more results. */
  nextPageToken?: string;
  /** Every match across all pages, before `skip`. */
  totalCount: number;
  /** Echo of the `skip` parameter. */
  skipped: number;
}

/** Per-call options. */
export interface RequestOptions {
  /** Cancels the call, including any wait between retries. */
  signal?: AbortSignal;
  /** Timeout of each attempt in milliseconds; overrides the client's `timeoutMs`. */
  timeoutMs?: number;
}

/** Options of `update`. */
/**
 * A field path of an update mask: the collection's known paths are suggested by
 * editors, any other string is accepted (the service judges it: INVALID_ARGUMENT
 * on `update_mask`), so masks computed at run time as `string[]` fit too.
 */
export type MaskPathOf<Known extends string> = Known | (string & Record<never, never>);

export interface UpdateOptions<MaskPath extends string> {
  /** Field paths to change (comma-separated on the wire); without it, fields present in the body change. */
  updateMask?: readonly MaskPathOf<MaskPath>[];
}
