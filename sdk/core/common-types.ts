/**
 * Types every collection shares: timestamps, the list parameters and pages of every
 * v2 List, per-call and update options. Each collection's own types stand beside it,
 * in its module under `resources/`. Field names are the specification's; int64
 * counters, which the wire carries as JSON strings, are numbers in the SDK.
 */

/** ISO 8601 timestamp with milliseconds and a `Z` suffix. */
export type Timestamp = string;

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

/**
 * A field path of an update mask: the collection's known paths are suggested by
 * editors, any other string is accepted (the service judges it: INVALID_ARGUMENT
 * on `update_mask`), so masks computed at run time as `string[]` fit too.
 */
export type MaskPathOf<Known extends string> = Known | (string & Record<never, never>);

/** Options of `update`. */
export interface UpdateOptions<MaskPath extends string> {
  /** Field paths to change (comma-separated on the wire); without it, fields present in the body change. */
  updateMask?: readonly MaskPathOf<MaskPath>[];
}
