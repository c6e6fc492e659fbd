/**
 * The registry's collections (repos with their README, tags) and the read-only
 * advisories, their types and readers. Fields the specification does not show
 * (registry and advisory details) are optional: the SDK passes through whatever the
 * service returns.
 */
import {
  badShape,
  CreatableCollection,
  ReadableCollection,
  WritableCollection,
} from "../core/collection";
import type {
  ListParams,
  PageParams,
  RequestOptions,
  Timestamp,
  UidpFilter,
} from "../core/common-types";
import { resourcePath } from "../core/path";
import { type ApiRequester, listQuery, type QueryValue, stringList } from "../core/resource";
import { isRecord, kindOf, ShapeError, ShapeReader } from "../core/shape";
import { checkEnum } from "./decode";

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

/** CreateRepo's repo: a name; the other settings are optional. */
export interface RepoCreate {
  /** Must match `^[a-z0-9 ._-]{1,}$`, unique in its group. */
  name: string;
  description?: string;
  catalogTier?: CatalogTier;
  aliases?: string[];
}

export type RepoUpdate = Partial<RepoCreate>;

/** Update-mask paths of a repo (proto field names). */
export type RepoMaskPath = "name" | "description" | "catalog_tier" | "aliases" | "*";

/** A repo's README (`RepoReadme`): the repo's uid and its Markdown. */
export interface RepoReadme {
  uid: string;
  content: string;
}

export interface Tag {
  uid: string;
  name: string;
  digest?: string;
  deprecated?: boolean;
  createTime?: Timestamp;
  updateTime?: Timestamp;
}

/** CreateTag's tag: a tag name pointing at a manifest digest. */
export interface TagCreate {
  /** An OCI tag: `[A-Za-z0-9_][A-Za-z0-9._-]{0,127}`. */
  name: string;
  /** `sha256:<64 hex>` (or `sha512:<128 hex>`). */
  digest: string;
  deprecated?: boolean;
}

/** `ListTagsRequest`'s own filters (tags of a repo: `childrenOf: <repo uid>`). */
export interface TagListParams extends ListParams {
  /** `digest`: only tags pointing at this digest (`sha256:...`). */
  digest?: string;
  /** `updated_since`: only tags updated at or after this time (RFC 3339). */
  updatedSince?: Timestamp;
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

/** The published catalog tiers. */
export const CATALOG_TIERS: readonly CatalogTier[] = [
  "CATALOG_TIER_UNSPECIFIED",
  "CATALOG_TIER_APPLICATION",
  "CATALOG_TIER_BASE",
  "CATALOG_TIER_FIPS",
  "CATALOG_TIER_AI",
  "CATALOG_TIER_DEVTOOLS",
  "CATALOG_TIER_COMMERCIAL",
];

/** The fields of a named registry object the SDK's types promise; the rest passes through. */
function checkNamed(r: ShapeReader): void {
  r.string("uid");
  r.string("name");
  r.optionalTimestamp("createTime");
  r.optionalTimestamp("updateTime");
}

/** A repository: the fields the types promise are checked, others pass through. */
export function decodeRepo(raw: unknown, at = "repo"): Repo {
  const r = ShapeReader.of(raw, at);
  checkNamed(r);
  r.optionalString("description");
  r.optionalBoolean("public", false);
  r.stringArray("aliases");
  const tier = r.optionalString("catalogTier");
  if (tier !== undefined && tier !== "") checkEnum(tier, `${at}.catalogTier`, CATALOG_TIERS);
  return { ...r.raw } as unknown as Repo;
}

/** A tag: the fields the types promise are checked, others pass through. */
export function decodeTag(raw: unknown, at = "tag"): Tag {
  const r = ShapeReader.of(raw, at);
  checkNamed(r);
  r.optionalString("digest");
  r.optionalBoolean("deprecated", false);
  return { ...r.raw } as unknown as Tag;
}

const SEVERITY_TYPES: readonly AdvisorySeverity["type"][] = [
  "TYPE_UNSPECIFIED",
  "TYPE_CVSS_V2",
  "TYPE_CVSS_V3",
  "TYPE_CVSS_V4",
];

/** The members of an event's one-of `type`. */
const EVENT_TYPES: readonly AdvisoryEventType[] = [
  "detection",
  "fixed",
  "falsePositiveDetermination",
  "analysisNotPlanned",
  "fixNotPlanned",
  "pendingUpstreamFix",
  "truePositiveDetermination",
  "patched",
];

function decodeEvent(raw: unknown, at: string): AdvisoryEvent {
  const r = ShapeReader.of(raw, at);
  const event: AdvisoryEvent = {
    uid: r.optionalString("uid", ""),
    author: r.optionalString("author", ""),
    reviewer: r.optionalString("reviewer", ""),
    reviewState: r.optionalString("reviewState", "REVIEW_STATE_UNSPECIFIED"),
  };
  r.copyTimestamps(event, "createTime");
  const issue = r.optionalString("issue");
  if (issue !== undefined) event.issue = issue;
  const findings = r.optionalString("findings");
  if (findings !== undefined && findings !== "") event.findings = findings;
  const set = EVENT_TYPES.filter((type) => r.raw[type] !== undefined && r.raw[type] !== null);
  if (set.length > 1) {
    throw new ShapeError(`${at}.${set[1]}`, `both ${set[0]} and ${set[1]} are set (one of)`);
  }
  for (const type of set) {
    const details = r.raw[type];
    if (!isRecord(details)) {
      throw new ShapeError(`${at}.${type}`, `expected an object, got ${kindOf(details)}`);
    }
    event[type] = { ...details };
  }
  return event;
}

/**
 * An advisory as the official `Advisory` message carries it. Unpopulated strings
 * (`""`) and lists (`[]`) are accepted; `severities` is kept only when the answer has
 * the member (older services lack it).
 */
export function decodeAdvisory(raw: unknown, at = "advisory"): Advisory {
  const r = ShapeReader.of(raw, at);
  const aliases = r.array("aliases");
  const advisory: Advisory = {
    uid: r.string("uid"),
    advisoryId: r.string("advisoryId"),
    author: r.optionalString("author", ""),
    artifactName: r.optionalString("artifactName", ""),
    artifactType: r.optionalString("artifactType", ""),
    artifactArchitecture: r.optionalString("artifactArchitecture", ""),
    componentName: r.optionalString("componentName", ""),
    componentLocation: r.optionalString("componentLocation", ""),
    componentType: r.optionalString("componentType", ""),
    aliases: aliases.length === 0 ? [] : r.stringArray("aliases"),
    events: r.array("events").map((event, index) => decodeEvent(event, `${at}.events[${index}]`)),
  };
  r.copyTimestamps(advisory, "createTime", "updateTime", "deleteTime");
  const legacy = r.optionalString("legacyAdvisoryId");
  if (legacy !== undefined && legacy !== "") advisory.legacyAdvisoryId = legacy;
  if (r.raw.severities !== undefined && r.raw.severities !== null) {
    advisory.severities = r.array("severities").map((item, index) => {
      const s = ShapeReader.of(item, `${at}.severities[${index}]`);
      const type = s.optionalString("type", "TYPE_UNSPECIFIED");
      return {
        type: checkEnum(type, `${s.at}.type`, SEVERITY_TYPES),
        score: s.optionalString("score", ""),
      };
    });
  }
  return advisory;
}

/** The longest README the SDK accepts in an answer, in characters. */
export const MAX_README_CHARS = 1_048_576;

/** A repo's README as answered: `uid` and `content` (absent: `""`), bounded in size. */
export function decodeRepoReadme(raw: unknown, at = "repoReadme"): RepoReadme {
  const r = ShapeReader.of(raw, at);
  const content = r.optionalString("content", "");
  if (content.length > MAX_README_CHARS) {
    throw new ShapeError(`${at}.content`, `longer than ${MAX_README_CHARS} characters`);
  }
  return { uid: r.string("uid"), content };
}

/**
 * `/registry/v2beta1/repos`: repositories (public ones readable without a token), made
 * under a group, changed with an update mask, deleted with their tags; each has a
 * README at `<uid>/readme`.
 */
export class Repos extends WritableCollection<Repo, RepoCreate, RepoUpdate, RepoMaskPath> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/registry/v2beta1/repos",
      listKey: "repos",
      noun: "repo",
      decode: decodeRepo,
    });
  }

  /** GetRepoReadme: the repo's README (`content` is `""` when it has none). */
  async getReadme(uid: string, options?: RequestOptions): Promise<RepoReadme> {
    const path = `${resourcePath(this.spec.path, uid)}/readme`;
    const body = await this.client.call({ method: "GET", path, options });
    return readmeAnswer(body, uid, { method: "GET", path });
  }

  /** UpdateRepoReadme: replaces the README's Markdown (mask `content`); answers the README. */
  async updateReadme(uid: string, content: string, options?: RequestOptions): Promise<RepoReadme> {
    if (typeof content !== "string") throw new TypeError("content must be a string");
    const path = `${resourcePath(this.spec.path, uid)}/readme`;
    const body = await this.client.call({
      method: "PATCH",
      path,
      query: { updateMask: "content" },
      body: { content },
      options,
    });
    return readmeAnswer(body, uid, { method: "PATCH", path });
  }
}

/** A README answer for repo `uid`, or a `BadResponseError` naming the field. */
function readmeAnswer(
  body: unknown,
  uid: string,
  request: { method: string; path: string },
): RepoReadme {
  try {
    const readme = decodeRepoReadme(body);
    if (readme.uid !== uid) {
      throw new ShapeError("repoReadme.uid", `${readme.uid} is not the uid asked for (${uid})`);
    }
    return readme;
  } catch (error) {
    throw badShape(error, request);
  }
}

/**
 * `/registry/v2beta1/tags`: tags of a repo (list with `childrenOf: <repo uid>`);
 * `create(repoUid, ...)` makes a tag or moves the one of that name, `delete` removes it.
 */
export class Tags extends CreatableCollection<Tag, TagCreate, TagListParams> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/registry/v2beta1/tags",
      listKey: "tags",
      noun: "tag",
      decode: decodeTag,
    });
  }

  protected override listQueryOf(params: TagListParams): Record<string, QueryValue> {
    if (params.updatedSince !== undefined && Number.isNaN(Date.parse(params.updatedSince))) {
      throw new TypeError("updatedSince must be an RFC 3339 timestamp");
    }
    return { ...listQuery(params), digest: params.digest, updated_since: params.updatedSince };
  }

  protected override filterMismatch(item: Tag, params: TagListParams) {
    if (!params.digest || item.digest === params.digest) return undefined;
    return { field: "digest", problem: `is not ${params.digest}, the digest filtered on` };
  }
}

/** The list filters of advisories and their query keys (the proto names). */
const ADVISORY_LISTS = {
  advisoryIds: "advisory_ids",
  legacyAdvisoryIds: "legacy_advisory_ids",
  artifactNames: "artifact_names",
  artifactTypes: "artifact_types",
  artifactArchitectures: "artifact_architectures",
  componentNames: "component_names",
  componentTypes: "component_types",
  componentLocations: "component_locations",
  aliases: "aliases",
  eventReviewStates: "event_review_states",
  eventAuthors: "event_authors",
  excludeEventAuthors: "exclude_event_authors",
  eventReviewers: "event_reviewers",
  eventTypes: "event_types",
} as const satisfies Partial<Record<keyof AdvisoryListParams, string>>;

/** `/vulnerabilities/v2beta1/advisories`: security advisories, filtered by the official filters. */
export class Advisories extends ReadableCollection<Advisory, AdvisoryListParams> {
  constructor(client: ApiRequester) {
    super(client, {
      path: "/vulnerabilities/v2beta1/advisories",
      listKey: "advisories",
      noun: "advisory",
      decode: decodeAdvisory,
    });
  }

  protected override listQueryOf(params: AdvisoryListParams): Record<string, QueryValue> {
    const query: Record<string, QueryValue> = {
      ...listQuery(params),
      // The request has no `name`: never sent, even from untyped code.
      name: undefined,
      origin: params.origin,
      latest_event_type: params.latestEventType,
      query: params.query,
    };
    for (const [param, key] of Object.entries(ADVISORY_LISTS)) {
      query[key] = stringList(param, params[param as keyof typeof ADVISORY_LISTS]);
    }
    return query;
  }

  /** Exact filters only: advisory ids and component names (artifact names unless `origin`). */
  protected override filterMismatch(item: Advisory, params: AdvisoryListParams) {
    const exact: Array<[keyof Advisory & string, readonly string[] | undefined]> = [
      ["advisoryId", params.advisoryIds],
      ["componentName", params.componentNames],
      ["artifactName", params.origin === undefined ? params.artifactNames : undefined],
    ];
    for (const [field, wanted] of exact) {
      if (wanted === undefined || wanted.length === 0) continue;
      if (!wanted.includes(item[field] as string)) {
        return { field, problem: `is not one of the ${field}s filtered on` };
      }
    }
    return undefined;
  }
}
