/**
 * HEAD's `advisory.v2beta1.SecurityAdvisoryService`: data the platform gathers outside
 * this API, so the emulator answers what `/emulator/seed` gave it and empty lists
 * otherwise.
 *
 * - `GET /advisory/v2beta1/documents` (no token needed, as the definitions say): the
 *   seeded documents, filtered by `id` (the origin package) and `cves` (an advisory
 *   whose id or aliases hold one of them; a document keeps only its matching
 *   advisories). Not paged: at most {@link MAX_DOCUMENTS}, by `id`.
 * - `GET /advisory/v2beta1/metadata` (no token): the seeded metadata of `id` and `ids`
 *   (at most 1000 distinct), or of every id with neither; paged, ordered by `id`.
 * - `GET /advisory/v2beta1/images/resolvedVulns`: for each `image_refs` entry (a repo's
 *   name or uid, and tags, default `latest`) and each day from `start_time` to
 *   `end_time` (at most {@link MAX_REPORT_DAYS}), the vulnerabilities seeded as resolved
 *   that day on those tags. It needs a token and, on each repo, `CAP_APK_LIST`,
 *   `CAP_REPO_LIST`, `CAP_MANIFEST_METADATA_LIST` and `CAP_TAG_LIST`; a repo the caller
 *   cannot read counts as absent.
 */
import type { Access } from "../access";
import { invalidArgument, unauthenticated } from "../errors";
import { parseListParams, runList } from "../listing";
import type {
  AdvisoryDocumentRecord,
  ResolvedVulnRecord,
  VulnerabilityMetadataRecord,
} from "../model";
import { type ApiResponse, type JsonObject, ok } from "../requests";
import * as kit from "./kit";

export const MAX_DOCUMENTS = 1000;
export const MAX_METADATA_IDS = 1000;
export const MAX_REPORT_DAYS = 366;
export const MAX_IMAGE_REFS = 100;
const DAY_MS = 86_400_000;
/** What a caller needs on a repo to read its resolved vulnerabilities. */
export const RESOLVED_VULNS_CAPABILITIES = [
  "CAP_APK_LIST",
  "CAP_REPO_LIST",
  "CAP_MANIFEST_METADATA_LIST",
  "CAP_TAG_LIST",
] as const;

/** Every non-empty value of a repeated query parameter, by proto name or JSON name. */
function repeated(query: URLSearchParams, snake: string, camel: string): string[] {
  const values = [...query.getAll(snake)];
  if (camel !== snake) values.push(...query.getAll(camel));
  return values.filter((value) => value !== "");
}

function documentOut(
  document: AdvisoryDocumentRecord,
  advisories: AdvisoryDocumentRecord["advisories"],
): JsonObject {
  return {
    id: document.id,
    advisories: advisories.map((advisory) => ({
      id: advisory.id,
      events: advisory.events.map((event) => structuredClone(event)),
      aliases: [...advisory.aliases],
      packageNamespace: advisory.packageNamespace,
    })),
  };
}

export const documents: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw kit.unsupported(request);
  // The definitions disable authentication here; a token presented is still checked.
  await kit.callerOf(ctx, request, false);
  const id = request.query.get("id") ?? "";
  const cves = new Set(repeated(request.query, "cves", "cves"));
  const found: JsonObject[] = [];
  const records =
    id === ""
      ? [...ctx.state.documents.values()]
      : ctx.state.documents
          .named(id)
          .map((u) => ctx.state.documents.get(u))
          .filter((record): record is AdvisoryDocumentRecord => record !== undefined);
  records.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.uid < b.uid ? -1 : 1));
  for (const document of records) {
    const advisories =
      cves.size === 0
        ? document.advisories
        : document.advisories.filter(
            (advisory) =>
              cves.has(advisory.id) || advisory.aliases.some((alias) => cves.has(alias)),
          );
    if (cves.size > 0 && advisories.length === 0) continue;
    found.push(documentOut(document, advisories));
    if (found.length === MAX_DOCUMENTS) break;
  }
  return ok({ documents: found });
};

function metadataOut(metadata: VulnerabilityMetadataRecord): JsonObject {
  return {
    id: metadata.id,
    summary: metadata.summary,
    details: metadata.details,
    references: metadata.references.map((reference) => ({ ...reference })),
    severities: metadata.severities.map((severity) => ({ ...severity })),
  };
}

export const vulnerabilityMetadata: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw kit.unsupported(request);
  await kit.callerOf(ctx, request, false);
  const wanted = new Set(repeated(request.query, "ids", "ids"));
  const single = request.query.get("id") ?? "";
  if (single !== "") wanted.add(single);
  if (wanted.size > MAX_METADATA_IDS) {
    throw invalidArgument("ids", `must name at most ${MAX_METADATA_IDS} distinct ids`);
  }
  const params = parseListParams(request.query, [], {
    nameFilter: false,
    orderFields: { id: "name", uid: "uid" },
    orderFieldsText: "id",
    defaultOrder: { field: "name", descending: false },
  });
  params.filters.ids = JSON.stringify([...wanted].sort());
  const result = runList<VulnerabilityMetadataRecord>({
    collectionKey: "vulnerabilityMetadata",
    collection: ctx.state.vulnerabilityMetadata,
    params,
    sortValue: kit.sortValueOf<VulnerabilityMetadataRecord>((metadata) => metadata.id),
    predicate: wanted.size === 0 ? undefined : (metadata) => wanted.has(metadata.id),
    scopeParentOf: () => "",
    nowMs: ctx.clock.nowMs(),
    pageTokenKey: ctx.tokens.pageTokenKey,
  });
  return kit.listEnvelope("vulnerabilityMetadata", result, metadataOut);
};

/** `image_refs` from the query, in order: each `image_refs.repo` starts an entry. */
function imageRefsOf(query: URLSearchParams): Array<{ repo: string; tags: string[] }> {
  const refs: Array<{ repo: string; tags: string[] }> = [];
  for (const [key, value] of query) {
    if (key === "image_refs.repo" || key === "imageRefs.repo") {
      refs.push({ repo: value, tags: [] });
    } else if (key === "image_refs.tags" || key === "imageRefs.tags") {
      const current = refs.at(-1);
      if (!current) throw invalidArgument("image_refs", "each entry needs its repo first");
      current.tags.push(value);
    }
  }
  if (refs.length === 0) throw invalidArgument("image_refs", "is required");
  if (refs.length > MAX_IMAGE_REFS) {
    throw invalidArgument("image_refs", `must list at most ${MAX_IMAGE_REFS} images`);
  }
  for (const [index, ref] of refs.entries()) {
    if (ref.repo === "") throw invalidArgument(`image_refs[${index}].repo`, "is required");
  }
  return refs;
}

/** A required Timestamp query parameter, as RFC 3339 text, in ms. */
function timeOf(query: URLSearchParams, snake: string, camel: string): number {
  const text = query.get(snake) ?? query.get(camel) ?? "";
  if (text === "") throw invalidArgument(snake, "is required");
  const ms = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}T/i.test(text) || Number.isNaN(ms)) {
    throw invalidArgument(snake, "must be an RFC 3339 timestamp");
  }
  return ms;
}

/** The repos `ref` names that `access` may read the reports of: by uid, else by name. */
function reposOf(ctx: Parameters<kit.CollectionHandler>[0], access: Access, ref: string): string[] {
  const uids = kit.GROUP_UID_PATTERN.test(ref) ? [ref] : ctx.state.repos.named(ref);
  return uids.filter(
    (uid) =>
      ctx.state.repos.has(uid) &&
      RESOLVED_VULNS_CAPABILITIES.every((capability) => access.can(capability, uid)),
  );
}

export const resolvedVulns: kit.CollectionHandler = async (
  ctx,
  request,
  uid,
): Promise<ApiResponse> => {
  if (request.method !== "GET" || uid !== "resolvedVulns") throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  if (!access.authenticated) throw unauthenticated("a bearer token is required");
  const refs = imageRefsOf(request.query);
  const start = timeOf(request.query, "start_time", "startTime");
  const end = timeOf(request.query, "end_time", "endTime");
  if (end < start) throw invalidArgument("end_time", "must not be before start_time");
  const first = Math.floor(start / DAY_MS);
  const last = Math.floor(end / DAY_MS);
  if (last - first + 1 > MAX_REPORT_DAYS) {
    throw invalidArgument("end_time", `the range must span at most ${MAX_REPORT_DAYS} days`);
  }
  const byDay = new Map<string, Map<string, ResolvedVulnRecord>>();
  for (const ref of refs) {
    const tags = ref.tags.length === 0 ? ["latest"] : ref.tags;
    for (const repoUid of reposOf(ctx, access, ref.repo)) {
      const { uids, start: from, end: to } = ctx.state.tags.childrenOf(repoUid);
      for (const tagUid of uids.slice(from, to)) {
        const tag = ctx.state.tags.get(tagUid);
        if (!tag || !tags.includes(tag.name) || (kit.parentOf(tag.uid) ?? "") !== repoUid) continue;
        for (const vuln of tag.resolvedVulns ?? []) {
          const day = byDay.get(vuln.date) ?? new Map<string, ResolvedVulnRecord>();
          day.set(vuln.id, vuln);
          byDay.set(vuln.date, day);
        }
      }
    }
  }
  const reports: JsonObject[] = [];
  for (let day = first; day <= last; day++) {
    const date = new Date(day * DAY_MS).toISOString();
    const vulns = [...(byDay.get(date.slice(0, 10))?.values() ?? [])].sort((a, b) =>
      a.id < b.id ? -1 : 1,
    );
    reports.push({
      date,
      resolvedVulns: vulns.map((vuln) => ({
        id: vuln.id,
        aliases: [...vuln.aliases],
        cvssSeverities: vuln.cvssSeverities.map((severity) => ({ ...severity })),
      })),
    });
  }
  return ok({ resolvedVulnsReports: reports });
};
