/**
 * Public resource types of the Identity and Registry Management API v2beta1.
 *
 * Field names are the specification's. Int64 counters, which the wire carries as
 * JSON strings, are converted to numbers by the SDK. Fields the specification does
 * not show (registry and advisory details) are optional: the SDK passes through
 * whatever the service returns.
 */

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
export type GroupMaskPath = "name" | "description" | "*";

export interface ClaimMatch {
  /** URL of the OIDC token issuer. */
  issuer: string;
  /** The token subject to match (`*` matches any subject of that issuer). */
  subject: string;
}

export interface Identity {
  uid: string;
  name: string;
  description: string;
  claimMatch: ClaimMatch;
  /** Set by the service; absent until the identity is first used. */
  lastSeenTime?: Timestamp;
  createTime: Timestamp;
  updateTime: Timestamp;
}

export interface IdentityCreate {
  name: string;
  description?: string;
  claimMatch: ClaimMatch;
}

export interface IdentityUpdate {
  name?: string;
  description?: string;
  claimMatch?: Partial<ClaimMatch>;
}
export type IdentityMaskPath =
  | "name"
  | "description"
  | "claimMatch"
  | "claimMatch.issuer"
  | "claimMatch.subject"
  | "*";

export interface Role {
  uid: string;
  name: string;
  description: string;
  /** `<collection>.<verb>` strings, e.g. `groups.create`. */
  capabilities: string[];
  /** Group a custom role belongs to; empty for built-in roles. */
  parentUid: string;
  createTime: Timestamp;
  updateTime: Timestamp;
}

export interface RoleCreate {
  name: string;
  description?: string;
  capabilities?: string[];
}

export type RoleUpdate = Partial<Pick<Role, "name" | "description" | "capabilities">>;
export type RoleMaskPath = "name" | "description" | "capabilities" | "*";

/** The identity as hydrated inside a role binding. */
export interface RoleBindingIdentity {
  uid: string;
  name: string;
  description: string;
  subject: string;
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
export type RoleBindingMaskPath = "identityUid" | "roleUid" | "*";

export interface Repo {
  uid: string;
  name: string;
  createTime: Timestamp;
  updateTime?: Timestamp;
  description?: string;
  /** Public repositories can be read without a token. */
  public?: boolean;
  catalogTier?: string;
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

export interface Advisory {
  uid: string;
  advisoryId: string;
  packageName: string;
  severity: string;
  aliases?: string[];
  createTime?: Timestamp;
  updateTime?: Timestamp;
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

/** Common parameters of every v2 List. */
export interface ListParams {
  /** `uidp.descendants_of`: only descendants of this uid (the uid itself excluded). */
  descendantsOf?: string;
  /** `uidp.children_of`: only direct children of this uid. */
  childrenOf?: string;
  /** Exact-match filter on name (on `advisoryId` for advisories). */
  name?: string;
  /** 1..200; the service uses 50 when absent. Iterating with `for await` defaults to 200. */
  pageSize?: number;
  /** Opaque cursor from a previous page's `nextPageToken`. */
  pageToken?: string;
  /** One field, optionally followed by ` asc` or ` desc`: `uid`, `name`, `create_time`, `update_time`. */
  orderBy?: string;
  /** Number of results to skip before the page begins. */
  skip?: number;
}

export interface AdvisoryListParams extends ListParams {
  /** Only advisories about this package. */
  packageName?: string;
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
