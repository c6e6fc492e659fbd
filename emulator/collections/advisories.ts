/**
 * Advisories: `/vulnerabilities/v2beta1/advisories`, read only, in the platform's
 * `Advisory` shape. Get and List need `CAP_ADVISORIES_LIST` (held on any group: the
 * advisories belong to no group of the caller's).
 */
import type { Access } from "../access";
import { ApiError, invalidArgument, unauthenticated } from "../errors";
import { capabilityFor } from "../kinds";
import { parseListParams, runList } from "../listing";
import type { AdvisoryRecord } from "../model";
import { type JsonObject, ok } from "../requests";
import * as kit from "./kit";

/** The members of `AdvisoryEvent`'s `type` one-of, by the list filter's enum value. */
/**
 * Where an advisory's component was found, when a seed or an earlier data file does not
 * say: the apk database, where a package's own component is recorded. The definitions
 * make `component_location` REQUIRED (corrections 18), so no advisory answers it empty.
 */
export const DEFAULT_COMPONENT_LOCATION = "/lib/apk/db/installed";

export const ADVISORY_EVENT_TYPES: Readonly<Record<string, string>> = {
  EVENT_TYPE_FILTER_DETECTION: "detection",
  EVENT_TYPE_FILTER_TRUE_POSITIVE_DETERMINATION: "truePositiveDetermination",
  EVENT_TYPE_FILTER_FIXED: "fixed",
  EVENT_TYPE_FILTER_FALSE_POSITIVE_DETERMINATION: "falsePositiveDetermination",
  EVENT_TYPE_FILTER_ANALYSIS_NOT_PLANNED: "analysisNotPlanned",
  EVENT_TYPE_FILTER_FIX_NOT_PLANNED: "fixNotPlanned",
  EVENT_TYPE_FILTER_PENDING_UPSTREAM_FIX: "pendingUpstreamFix",
  EVENT_TYPE_FILTER_PATCHED: "patched",
};

export const REVIEW_STATES = [
  "REVIEW_STATE_UNSPECIFIED",
  "REVIEW_STATE_PENDING",
  "REVIEW_STATE_APPROVED",
  "REVIEW_STATE_REQUEST_CHANGES",
  "REVIEW_STATE_REJECTED",
] as const;

export const SEVERITY_TYPES = [
  "TYPE_UNSPECIFIED",
  "TYPE_CVSS_V2",
  "TYPE_CVSS_V3",
  "TYPE_CVSS_V4",
] as const;

export function advisoryOut(advisory: AdvisoryRecord): JsonObject {
  return {
    uid: advisory.uid,
    advisoryId: advisory.advisoryId,
    createTime: advisory.createTime,
    updateTime: advisory.updateTime,
    author: advisory.author,
    artifactName: advisory.artifactName,
    artifactType: advisory.artifactType,
    artifactArchitecture: advisory.artifactArchitecture,
    componentName: advisory.componentName,
    componentLocation: advisory.componentLocation,
    componentType: advisory.componentType,
    aliases: [...advisory.aliases],
    events: advisory.events.map((event) => structuredClone(event)),
    ...(advisory.legacyAdvisoryId !== undefined
      ? { legacyAdvisoryId: advisory.legacyAdvisoryId }
      : {}),
    severities: advisory.severities.map((severity) => ({ ...severity })),
  };
}

/** The `type` member an event carries (`fixed`, `detection`, ...), if any. */
export function eventTypeOf(event: Record<string, unknown>): string | undefined {
  return Object.values(ADVISORY_EVENT_TYPES).find((member) => event[member] !== undefined);
}

/** Every value of a repeated list filter, under its proto name or its JSON name. */
function repeated(query: URLSearchParams, snake: string, camel: string): string[] {
  return [...query.getAll(snake), ...query.getAll(camel)].filter((value) => value !== "");
}

function single(query: URLSearchParams, snake: string, camel: string): string | undefined {
  const value = query.get(snake) ?? query.get(camel);
  return value === null || value === "" ? undefined : value;
}

function requireEnum(field: string, values: readonly string[], allowed: readonly string[]) {
  for (const value of values) {
    if (!allowed.includes(value)) {
      throw invalidArgument(field, `"${value}" is not one of ${allowed.join(", ")}`);
    }
  }
}

/** The list filters of `ListAdvisoriesRequest`, as one predicate (undefined: none given). */
function advisoryFilter(query: URLSearchParams): {
  key: string;
  match: ((advisory: AdvisoryRecord) => boolean) | undefined;
} {
  const sets = {
    advisoryIds: repeated(query, "advisory_ids", "advisoryIds"),
    legacyAdvisoryIds: repeated(query, "legacy_advisory_ids", "legacyAdvisoryIds"),
    artifactNames: repeated(query, "artifact_names", "artifactNames"),
    artifactTypes: repeated(query, "artifact_types", "artifactTypes"),
    artifactArchitectures: repeated(query, "artifact_architectures", "artifactArchitectures"),
    componentNames: repeated(query, "component_names", "componentNames"),
    componentTypes: repeated(query, "component_types", "componentTypes"),
    componentLocations: repeated(query, "component_locations", "componentLocations"),
    aliases: repeated(query, "aliases", "aliases"),
    eventReviewStates: repeated(query, "event_review_states", "eventReviewStates"),
    eventAuthors: repeated(query, "event_authors", "eventAuthors"),
    excludeEventAuthors: repeated(query, "exclude_event_authors", "excludeEventAuthors"),
    eventReviewers: repeated(query, "event_reviewers", "eventReviewers"),
    eventTypes: repeated(query, "event_types", "eventTypes"),
  };
  const origin = single(query, "origin", "origin");
  const latestEventType = single(query, "latest_event_type", "latestEventType");
  const text = single(query, "query", "query")?.toLowerCase();
  requireEnum("event_review_states", sets.eventReviewStates, REVIEW_STATES);
  const eventFilters = Object.keys(ADVISORY_EVENT_TYPES);
  requireEnum("event_types", sets.eventTypes, eventFilters);
  requireEnum("latest_event_type", latestEventType ? [latestEventType] : [], eventFilters);
  const key = JSON.stringify([sets, origin ?? "", latestEventType ?? "", text ?? ""]);
  const given =
    Object.values(sets).some((values) => values.length > 0) ||
    origin !== undefined ||
    latestEventType !== undefined ||
    text !== undefined;
  if (!given) return { key, match: undefined };
  const among = (values: string[], value: string | undefined) =>
    values.length === 0 || (value !== undefined && values.includes(value));
  const events = (advisory: AdvisoryRecord) => advisory.events;
  return {
    key,
    match: (advisory) =>
      among(sets.advisoryIds, advisory.advisoryId) &&
      among(sets.legacyAdvisoryIds, advisory.legacyAdvisoryId) &&
      // With `origin`, the artifact is the origin package and `artifact_names` is ignored.
      (origin !== undefined
        ? advisory.artifactName === origin
        : among(sets.artifactNames, advisory.artifactName)) &&
      among(sets.artifactTypes, advisory.artifactType) &&
      among(sets.artifactArchitectures, advisory.artifactArchitecture) &&
      among(sets.componentNames, advisory.componentName) &&
      among(sets.componentTypes, advisory.componentType) &&
      among(sets.componentLocations, advisory.componentLocation) &&
      (sets.aliases.length === 0 ||
        advisory.aliases.some((alias) => sets.aliases.includes(alias))) &&
      (sets.eventReviewStates.length === 0 ||
        events(advisory).some((event) =>
          sets.eventReviewStates.includes(String(event.reviewState)),
        )) &&
      (sets.eventAuthors.length === 0 ||
        events(advisory).some((event) => sets.eventAuthors.includes(String(event.author)))) &&
      !events(advisory).some((event) => sets.excludeEventAuthors.includes(String(event.author))) &&
      (sets.eventReviewers.length === 0 ||
        events(advisory).some((event) => sets.eventReviewers.includes(String(event.reviewer)))) &&
      (sets.eventTypes.length === 0 ||
        events(advisory).some((event) =>
          sets.eventTypes.some((type) => eventTypeOf(event) === ADVISORY_EVENT_TYPES[type]),
        )) &&
      (latestEventType === undefined ||
        latestApprovedType(advisory) === ADVISORY_EVENT_TYPES[latestEventType]) &&
      (text === undefined ||
        [advisory.artifactName, advisory.componentName, ...advisory.aliases].some((value) =>
          value.toLowerCase().includes(text),
        )),
  };
}

/** The type of the most recent approved event (events are kept oldest first). */
function latestApprovedType(advisory: AdvisoryRecord): string | undefined {
  for (let index = advisory.events.length - 1; index >= 0; index--) {
    const event = advisory.events[index];
    if (event.reviewState === "REVIEW_STATE_APPROVED") return eventTypeOf(event);
  }
  return undefined;
}

/** Get and List need `CAP_ADVISORIES_LIST`; advisories hang under none of the caller's groups. */
function requireAdvisoriesList(access: Access): void {
  if (!access.authenticated) throw unauthenticated("a bearer token is required");
  const capability = capabilityFor("advisories", "list");
  if (!access.holdsAnywhere(capability)) {
    throw new ApiError("PERMISSION_DENIED", `Permission denied: ${capability} on advisories`);
  }
}

export const advisories = kit.readOnlyCollection(
  (ctx, request, access) => {
    requireAdvisoriesList(access);
    // `ListAdvisoriesRequest` has no `name`: the gateway ignores it, and so does this list.
    const params = parseListParams(request.query, [], { nameFilter: false });
    const filter = advisoryFilter(request.query);
    // The filters are part of the query a page token belongs to.
    params.filters.advisories = filter.key;
    const result = runList<AdvisoryRecord>({
      collectionKey: "advisories",
      collection: ctx.state.advisories,
      params,
      sortValue: kit.sortValueOf<AdvisoryRecord>((advisory) => advisory.advisoryId),
      predicate: filter.match,
      scopeParentOf: () => "",
      nowMs: ctx.clock.nowMs(),
      pageTokenKey: ctx.tokens.pageTokenKey,
    });
    return kit.listEnvelope("advisories", result, advisoryOut);
  },
  (ctx, access, uid) => {
    requireAdvisoriesList(access);
    if (!kit.FLAT_UID_PATTERN.test(uid))
      throw invalidArgument("uid", "must be an advisory uid (40 hex characters)");
    return ok(advisoryOut(kit.existing(ctx.state.advisories, uid)));
  },
);
