/**
 * Chainguard Libraries request groups: HEAD's `libraries.v2beta1.RequestGroupsService`,
 * an organisation's requests for library versions. A group is made from a pinned input
 * (a requirements.txt, poetry.lock or uv.lock, or a Maven GAV list) or from requirement
 * lines, starts as a draft, and is submitted once. The emulator builds nothing: its
 * coverage check runs at once against the artifacts seeded for `ArtifactsService` (a
 * seeded version is BUILT, any other parsed one CAN_BE_REQUESTED with the artifact's
 * latest version as its upgrade; an unparseable line INVALID_REQUIREMENT), so a group
 * is COMPLETED as soon as it is made; a submit moves its requestable items to BUILDING.
 *
 * A group's uid is a child of its group (`parent`), an item's a child of its request
 * group's. Names are unique among the parent's live groups; a create with the content
 * hash of a live draft of the same parent answers that draft (the definitions'
 * idempotency). A delete keeps the group as a CANCELED tombstone (Get still answers it,
 * lists leave it out) and drops its items; deleting a submitted group also needs
 * `CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED`.
 */
import { createHash } from "node:crypto";
import type { Access } from "../access";
import { alreadyExists, failedPrecondition, invalidArgument } from "../errors";
import { IndexedCollection } from "../indexed-collection";
import { type ListParams, parseListParams, runList } from "../listing";
import type { RequestGroupItemRecord, RequestGroupRecord } from "../model";
import {
  type ApiRequest,
  type ApiResponse,
  bodyObject,
  type JsonObject,
  ok,
  optionalBoolean,
  optionalObject,
  optionalString,
  optionalStringArray,
  updatePaths,
} from "../requests";
import type { State } from "../state";
import { ecosystemOf } from "./artifacts";
import * as kit from "./kit";

export const MAX_REQUEST_GROUP_ITEMS = 10_000;
const CAP = {
  create: "CAP_LIBRARIES_REQUEST_GROUPS_CREATE",
  list: "CAP_LIBRARIES_REQUEST_GROUPS_LIST",
  update: "CAP_LIBRARIES_REQUEST_GROUPS_UPDATE",
  delete: "CAP_LIBRARIES_REQUEST_GROUPS_DELETE",
  deleteSubmitted: "CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED",
  submit: "CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT",
  items: "CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE",
  refresh: "CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE",
} as const;

const INPUT_FORMATS = [
  "INPUT_FORMAT_UNSPECIFIED",
  "INPUT_FORMAT_REQUIREMENTS_TXT",
  "INPUT_FORMAT_POETRY_LOCK",
  "INPUT_FORMAT_UV_LOCK",
  "INPUT_FORMAT_MAVEN_GAV_LIST",
] as const;
const AVAILABILITIES = [
  "AVAILABILITY_UNSPECIFIED",
  "AVAILABILITY_BUILT",
  "AVAILABILITY_CAN_BE_REQUESTED",
  "AVAILABILITY_BLOCKED",
  "AVAILABILITY_NOT_FOUND_UPSTREAM",
  "AVAILABILITY_WONT_BUILD",
  "AVAILABILITY_INVALID_REQUIREMENT",
  "AVAILABILITY_BUILDING",
  "AVAILABILITY_BUILD_FAILED",
] as const;
/** The availabilities that hold a submit until the item is removed. */
const BLOCKING_SUBMIT = new Set([
  "AVAILABILITY_NOT_FOUND_UPSTREAM",
  "AVAILABILITY_WONT_BUILD",
  "AVAILABILITY_INVALID_REQUIREMENT",
]);
const STATES = [
  "REQUEST_GROUP_STATE_UNSPECIFIED",
  "REQUEST_GROUP_STATE_DRAFT",
  "REQUEST_GROUP_STATE_SUBMITTED",
  "REQUEST_GROUP_STATE_ALL",
] as const;

/** An enum query or body value by name or number; undefined when absent or zero. */
function enumOf(values: readonly string[], value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = String(value);
  const name = /^\d+$/.test(text) ? values[Number(text)] : text;
  if (name === undefined || !values.includes(name)) {
    throw invalidArgument(field, `must be one of ${values.join(", ")}`);
  }
  return name === values[0] ? undefined : name;
}

// ---------------------------------------------------------------- parsing

interface Parsed {
  requirement: string;
  packageName: string;
  version: string;
  ecosystem: string;
}

/** PEP 503: lowercase, runs of `-_.` as one `-`. */
function pep503(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

function pythonLine(line: string): Parsed {
  const match =
    /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?\s*==\s*([A-Za-z0-9.!+_-]+)\s*(;.*)?$/.exec(line);
  return match
    ? {
        requirement: line,
        packageName: pep503(match[1]),
        version: match[3],
        ecosystem: "ECOSYSTEM_PYTHON",
      }
    : { requirement: line, packageName: "", version: "", ecosystem: "ECOSYSTEM_PYTHON" };
}

function javaLine(line: string): Parsed {
  const parts = line.split(":");
  const ok =
    parts.length >= 3 && parts.length <= 5 && parts.every((part) => /^[A-Za-z0-9._-]+$/.test(part));
  return ok
    ? {
        requirement: line,
        packageName: `${parts[0]}:${parts[1]}`,
        version: parts[parts.length - 1],
        ecosystem: "ECOSYSTEM_JAVA",
      }
    : { requirement: line, packageName: "", version: "", ecosystem: "ECOSYSTEM_JAVA" };
}

/** The `[[package]]` entries of a poetry.lock or uv.lock, as `name==version` requirements. */
function lockPackages(content: string): Parsed[] {
  const parsed: Parsed[] = [];
  for (const block of content.split(/^\[\[package\]\]\s*$/m).slice(1)) {
    const name = /^name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    const version = /^version\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    const requirement = `${name ?? ""}==${version ?? ""}`;
    parsed.push(
      name && version
        ? pythonLine(requirement)
        : { requirement, packageName: "", version: "", ecosystem: "ECOSYSTEM_PYTHON" },
    );
  }
  return parsed;
}

/** Requirement lines: blank lines, comments and pip options left out. */
function linesOf(content: string): string[] {
  return content
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#") && !line.startsWith("-"));
}

function parseInput(body: JsonObject): { items: Parsed[]; format: string; content: string } {
  const content = optionalString(body, "content") ?? "";
  const lines = optionalStringArray(body, "items") ?? [];
  const format = enumOf(INPUT_FORMATS, body.format, "format");
  if (content !== "" && lines.length > 0) {
    throw invalidArgument("items", "give content or items, not both");
  }
  if (content === "" && lines.length === 0) {
    throw invalidArgument("content", "is required (or items)");
  }
  let items: Parsed[];
  if (content !== "") {
    if (!format) throw invalidArgument("format", "is required when content is set");
    if (format === "INPUT_FORMAT_MAVEN_GAV_LIST") items = linesOf(content).map(javaLine);
    else if (format === "INPUT_FORMAT_REQUIREMENTS_TXT") items = linesOf(content).map(pythonLine);
    else items = lockPackages(content);
  } else {
    // Without a format, each line says its ecosystem: `name==version` is Python, a
    // `group:artifact:version` coordinate Java (anything else is checked as Python).
    const lineOf = (line: string): Parsed => {
      if (format === "INPUT_FORMAT_MAVEN_GAV_LIST") return javaLine(line);
      if (format) return pythonLine(line);
      return !line.includes("==") && line.includes(":") ? javaLine(line) : pythonLine(line);
    };
    items = lines
      .map((line) => line.trim())
      .filter((line) => line !== "")
      .map(lineOf);
  }
  if (items.length === 0)
    throw invalidArgument(content !== "" ? "content" : "items", "holds no requirement");
  if (items.length > MAX_REQUEST_GROUP_ITEMS) {
    throw invalidArgument(
      content !== "" ? "content" : "items",
      `must hold at most ${MAX_REQUEST_GROUP_ITEMS} requirements`,
    );
  }
  return {
    items,
    format: format ?? "INPUT_FORMAT_UNSPECIFIED",
    content: content !== "" ? content : lines.join("\n"),
  };
}

// ---------------------------------------------------------------- coverage

/** The availability of one parsed item against the seeded artifacts. */
function coverage(
  state: State,
  item: Parsed,
): Pick<RequestGroupItemRecord, "availability" | "availabilityReason" | "upgrade"> {
  if (item.packageName === "") {
    return {
      availability: "AVAILABILITY_INVALID_REQUIREMENT",
      availabilityReason: "not a pinned package and version",
    };
  }
  const name = item.ecosystem === "ECOSYSTEM_PYTHON" ? item.packageName : item.packageName;
  for (const uid of state.artifacts.named(name)) {
    const artifact = state.artifacts.get(uid);
    if (!artifact || artifact.ecosystem !== item.ecosystem) continue;
    const { uids, start, end } = state.artifactVersions.childrenOf(uid);
    const versions = uids
      .slice(start, end)
      .map((child) => state.artifactVersions.get(child))
      .filter((v) => v !== undefined);
    if (versions.some((version) => version.version === item.version)) {
      return { availability: "AVAILABILITY_BUILT", availabilityReason: "" };
    }
    const latest = versions.reduce<(typeof versions)[number] | undefined>(
      (best, v) => (!best || v.createTime > best.createTime ? v : best),
      undefined,
    );
    return {
      availability: "AVAILABILITY_CAN_BE_REQUESTED",
      availabilityReason: "",
      ...(latest
        ? { upgrade: { closestVersion: latest.version, latestVersion: latest.version } }
        : {}),
    };
  }
  return { availability: "AVAILABILITY_CAN_BE_REQUESTED", availabilityReason: "" };
}

function itemsOf(state: State, groupUid: string): RequestGroupItemRecord[] {
  const store = state.requestGroupItems;
  const { uids, start, end } = store.childrenOf(groupUid);
  return uids
    .slice(start, end)
    .map((uid) => store.get(uid))
    .filter((item): item is RequestGroupItemRecord => item !== undefined);
}

function summaryOf(items: RequestGroupItemRecord[]): JsonObject {
  const counts: Record<string, number> = {
    built: 0,
    canBeRequested: 0,
    blocked: 0,
    notFoundUpstream: 0,
    wontBuild: 0,
    invalidRequirement: 0,
    building: 0,
    buildFailed: 0,
    removed: 0,
    blockingSubmit: 0,
  };
  const key: Record<string, string> = {
    AVAILABILITY_BUILT: "built",
    AVAILABILITY_CAN_BE_REQUESTED: "canBeRequested",
    AVAILABILITY_BLOCKED: "blocked",
    AVAILABILITY_NOT_FOUND_UPSTREAM: "notFoundUpstream",
    AVAILABILITY_WONT_BUILD: "wontBuild",
    AVAILABILITY_INVALID_REQUIREMENT: "invalidRequirement",
    AVAILABILITY_BUILDING: "building",
    AVAILABILITY_BUILD_FAILED: "buildFailed",
  };
  for (const item of items) {
    if (item.removed) {
      counts.removed++;
      continue;
    }
    const name = key[item.availability];
    if (name) counts[name]++;
    if (BLOCKING_SUBMIT.has(item.availability)) counts.blockingSubmit++;
  }
  return counts;
}

// ---------------------------------------------------------------- answers

function groupOut(state: State, group: RequestGroupRecord): JsonObject {
  const items = itemsOf(state, group.uid);
  return {
    uid: group.uid,
    parentId: kit.parentOf(group.uid) ?? "",
    name: group.name,
    status: group.status,
    ecosystem: group.ecosystem,
    source: group.source,
    forCveRemediation: group.forCveRemediation,
    ...(group.submitTime ? { submitTime: group.submitTime } : {}),
    createTime: group.createTime,
    updateTime: group.updateTime,
    itemsUpdateTime: group.itemsUpdateTime,
    createdBy: group.createdBy,
    submittedBy: group.submittedBy ?? "",
    input: {
      filename: group.filename,
      format: group.format,
      contentHash: group.contentHash,
      itemCount: group.itemCount,
    },
    availabilitySummary: summaryOf(items),
    ...(group.forCveRemediation
      ? { cveRemediationSummary: { scanQueued: items.filter((i) => !i.removed).length } }
      : {}),
    orgUpstreamEnabled: false,
  };
}

function itemOut(group: RequestGroupRecord, item: RequestGroupItemRecord): JsonObject {
  return {
    uid: item.uid,
    requirement: item.requirement,
    packageName: item.packageName,
    version: item.version,
    ecosystem: item.ecosystem,
    availability: item.availability,
    availabilityReason: item.availabilityReason,
    ...(item.upgrade ? { upgrade: item.upgrade } : {}),
    ...(group.forCveRemediation
      ? { cveRemediation: { status: "CVE_REMEDIATION_STATUS_SCAN_QUEUED" } }
      : {}),
    removed: item.removed,
    updateTime: item.updateTime,
  };
}

// ---------------------------------------------------------------- handlers

/** A live (not canceled) group at `uid` the caller may act on with `capability`. */
function loadGroup(
  ctx: kit.EmulatorContext,
  access: Access,
  uid: string,
  capability: string,
  live = true,
): RequestGroupRecord {
  kit.requirePathUid(uid);
  access.require(capability, uid);
  const group = kit.existing(ctx.state.requestGroups, uid);
  if (live && group.status === "REQUEST_GROUP_STATUS_CANCELED") {
    throw failedPrecondition({
      type: "STATE",
      subject: uid,
      description: `request group ${uid} was deleted`,
    });
  }
  return group;
}

function requireDraft(group: RequestGroupRecord): void {
  if (group.submitTime) {
    throw failedPrecondition({
      type: "STATE",
      subject: group.uid,
      description: `request group ${group.uid} is submitted, not a draft`,
    });
  }
}

function uniqueName(state: State, parent: string, name: string, self?: string): void {
  for (const uid of state.requestGroups.named(name)) {
    const other = state.requestGroups.get(uid);
    if (
      uid !== self &&
      (kit.parentOf(uid) ?? "") === parent &&
      other &&
      other.status !== "REQUEST_GROUP_STATUS_CANCELED"
    ) {
      throw alreadyExists(`a request group named "${name}" in ${parent}`);
    }
  }
}

function create(
  ctx: kit.EmulatorContext,
  access: Access,
  request: ApiRequest,
  given: string,
): ApiResponse {
  const parent = kit.requirePathUid(given, "parent");
  access.require(CAP.create, parent);
  const body = bodyObject(request);
  const name = optionalString(body, "name");
  if (name !== undefined && name !== "") kit.requireName(name);
  const filename = optionalString(body, "filename") ?? "";
  const context = optionalObject(body, "ecosystemContext") ?? {};
  for (const [key, value] of Object.entries(context)) {
    if (typeof value !== "string")
      throw invalidArgument(`ecosystemContext.${key}`, "must be a string");
  }
  const forCveRemediation = optionalBoolean(body, "forCveRemediation") ?? false;
  const input = parseInput(body);
  const ecosystems = new Set(input.items.map((item) => item.ecosystem));
  if (ecosystems.size > 1) throw invalidArgument("items", "must all be of one ecosystem");
  kit.existing(ctx.state.groups, parent);
  const contentHash = createHash("sha256")
    .update(JSON.stringify([input.content, Object.entries(context).sort()]))
    .digest("hex");
  for (const uid of ctx.state.requestGroups.childrenOf(parent).uids) {
    const other = ctx.state.requestGroups.get(uid);
    if (
      other &&
      (kit.parentOf(uid) ?? "") === parent &&
      other.contentHash === contentHash &&
      !other.submitTime &&
      other.status !== "REQUEST_GROUP_STATUS_CANCELED"
    ) {
      return ok(groupOut(ctx.state, other));
    }
  }
  const now = ctx.clock.isoNow();
  const uid = kit.newChildUid(parent, (candidate) => ctx.state.requestGroups.has(candidate));
  const finalName = name && name !== "" ? name : `request-${uid.slice(-8)}`;
  uniqueName(ctx.state, parent, finalName);
  const group: RequestGroupRecord = {
    uid,
    name: finalName,
    status: "REQUEST_GROUP_STATUS_COMPLETED",
    ecosystem: [...ecosystems][0] ?? "ECOSYSTEM_UNSPECIFIED",
    source: "REQUEST_SOURCE_API",
    forCveRemediation,
    createdBy: access.identityUid ?? "",
    filename,
    format: input.format,
    contentHash,
    itemCount: input.items.length,
    itemsUpdateTime: now,
    createTime: now,
    updateTime: now,
  };
  ctx.state.requestGroups.insert(group);
  for (const item of input.items) {
    ctx.state.requestGroupItems.insert({
      uid: kit.newChildUid(uid, (candidate) => ctx.state.requestGroupItems.has(candidate)),
      ...item,
      ...coverage(ctx.state, item),
      removed: false,
      createTime: now,
      updateTime: now,
    });
  }
  ctx.state.touch();
  return ok(groupOut(ctx.state, group));
}

function listGroups(ctx: kit.EmulatorContext, access: Access, request: ApiRequest): ApiResponse {
  const { query } = request;
  const parent = query.get("parent") ?? "";
  if (parent === "") throw invalidArgument("parent", "is required");
  kit.requirePathUid(parent, "parent");
  access.require(CAP.list, parent);
  const state = enumOf(STATES, query.get("state"), "state") ?? "REQUEST_GROUP_STATE_SUBMITTED";
  const status = enumOf(
    [
      "REQUEST_GROUP_STATUS_UNSPECIFIED",
      "REQUEST_GROUP_STATUS_CREATING",
      "REQUEST_GROUP_STATUS_PENDING",
      "REQUEST_GROUP_STATUS_PROCESSING",
      "REQUEST_GROUP_STATUS_COMPLETED",
      "REQUEST_GROUP_STATUS_FAILED",
      "REQUEST_GROUP_STATUS_CANCELED",
      "REQUEST_GROUP_STATUS_EXPIRED",
    ],
    query.get("status"),
    "status",
  );
  const ecosystem = query.get("ecosystem")
    ? ecosystemOf(query.get("ecosystem") ?? "", "ecosystem")
    : undefined;
  const source = query.get("source") || undefined;
  const cve = query.get("for_cve_remediation") ?? query.get("forCveRemediation");
  const params = parseListParams(query, [], {
    orderFields: {
      name: "name",
      create_time: "createTime",
      createTime: "createTime",
      update_time: "updateTime",
      updateTime: "updateTime",
    },
    orderFieldsText: "name, create_time, update_time",
  });
  params.childrenOf = parent;
  params.filters.requestGroups = JSON.stringify([
    state,
    status ?? "",
    ecosystem ?? "",
    source ?? "",
    cve ?? "",
  ]);
  const result = runList<RequestGroupRecord>({
    collectionKey: "requestGroups",
    collection: ctx.state.requestGroups,
    params,
    sortValue: kit.sortValueOf<RequestGroupRecord>((group) => group.name),
    predicate: (group) =>
      (status ? group.status === status : group.status !== "REQUEST_GROUP_STATUS_CANCELED") &&
      (state === "REQUEST_GROUP_STATE_ALL" ||
        (state === "REQUEST_GROUP_STATE_DRAFT") === !group.submitTime) &&
      (!ecosystem || group.ecosystem === ecosystem) &&
      (!source || group.source === source) &&
      (cve === null || cve === "" || String(group.forCveRemediation) === cve),
    nowMs: ctx.clock.nowMs(),
    pageTokenKey: ctx.tokens.pageTokenKey,
  });
  return kit.listEnvelope("requestGroups", result, (group) => groupOut(ctx.state, group));
}

function listItems(
  ctx: kit.EmulatorContext,
  access: Access,
  request: ApiRequest,
  uid: string,
): ApiResponse {
  const group = loadGroup(ctx, access, uid, CAP.list, false);
  const { query } = request;
  const availability = enumOf(AVAILABILITIES, query.get("availability"), "availability");
  const includeRemoved = (query.get("include_removed") ?? query.get("includeRemoved")) === "true";
  const minText = query.get("min_update_time") ?? query.get("minUpdateTime") ?? "";
  const min = minText === "" ? undefined : Date.parse(minText);
  if (min !== undefined && Number.isNaN(min))
    throw invalidArgument("min_update_time", "must be an RFC 3339 timestamp");
  const params: ListParams = parseListParams(query, [], { nameFilter: false });
  params.childrenOf = group.uid;
  params.filters.items = JSON.stringify([availability ?? "", includeRemoved, minText]);
  const result = runList<RequestGroupItemRecord>({
    collectionKey: "requestGroupItems",
    collection: ctx.state.requestGroupItems,
    params,
    sortValue: kit.sortValueOf<RequestGroupItemRecord>((item) => item.packageName),
    predicate: (item) =>
      (includeRemoved || !item.removed) &&
      (!availability || item.availability === availability) &&
      (min === undefined || Date.parse(item.updateTime) >= min),
    nowMs: ctx.clock.nowMs(),
    pageTokenKey: ctx.tokens.pageTokenKey,
  });
  return kit.listEnvelope("requestGroupItems", result, (item) => itemOut(group, item));
}

function update(
  ctx: kit.EmulatorContext,
  access: Access,
  request: ApiRequest,
  uid: string,
): ApiResponse {
  const group = loadGroup(ctx, access, uid, CAP.update);
  const body = bodyObject(request);
  const { paths } = updatePaths(request, body, ["name"]);
  if (!paths.includes("name")) return ok(groupOut(ctx.state, group));
  const name = kit.requireName(body.name);
  if (name === group.name) return ok(groupOut(ctx.state, group));
  uniqueName(ctx.state, kit.parentOf(group.uid) ?? "", name, group.uid);
  const next: RequestGroupRecord = { ...group, name, updateTime: ctx.clock.isoNow() };
  ctx.state.requestGroups.replace(next);
  ctx.state.touch();
  return ok(groupOut(ctx.state, next));
}

function remove(ctx: kit.EmulatorContext, access: Access, uid: string): ApiResponse {
  const group = loadGroup(ctx, access, uid, CAP.delete, false);
  if (group.submitTime) access.require(CAP.deleteSubmitted, group.uid);
  if (group.status === "REQUEST_GROUP_STATUS_CANCELED") return ok({});
  for (const item of itemsOf(ctx.state, group.uid)) ctx.state.requestGroupItems.delete(item.uid);
  const now = ctx.clock.isoNow();
  ctx.state.requestGroups.replace({
    ...group,
    status: "REQUEST_GROUP_STATUS_CANCELED",
    updateTime: now,
    itemsUpdateTime: now,
  });
  ctx.state.touch();
  return ok({});
}

export const requestGroups: kit.CollectionHandler = async (ctx, request, uid) => {
  const access = await kit.callerOf(ctx, request, true);
  switch (request.method) {
    case "GET":
      if (uid === undefined) return listGroups(ctx, access, request);
      if (uid.endsWith("/items"))
        return listItems(ctx, access, request, uid.slice(0, -"/items".length));
      return ok(groupOut(ctx.state, loadGroup(ctx, access, uid, CAP.list, false)));
    case "POST":
      if (uid === undefined) throw invalidArgument("parent", "the group uid belongs in the path");
      return create(ctx, access, request, uid);
    case "PATCH":
      if (uid === undefined) throw kit.unsupported(request);
      return update(ctx, access, request, uid);
    case "DELETE":
      if (uid === undefined) throw kit.unsupported(request);
      return remove(ctx, access, uid);
    default:
      throw kit.unsupported(request);
  }
};

/** `POST requestGroups/<uid>:submit`: a draft with nothing blocking becomes SUBMITTED. */
export const submitRequestGroup: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "POST" || uid === undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const group = loadGroup(ctx, access, uid, CAP.submit);
  const body = bodyObject(request);
  const forCveRemediation = optionalBoolean(body, "forCveRemediation") ?? group.forCveRemediation;
  requireDraft(group);
  const items = itemsOf(ctx.state, group.uid);
  const blocking = items.filter((item) => !item.removed && BLOCKING_SUBMIT.has(item.availability));
  if (blocking.length > 0) {
    throw failedPrecondition({
      type: "BLOCKING_ITEMS",
      subject: group.uid,
      description: `remove the ${blocking.length} item(s) that cannot be requested first`,
    });
  }
  const now = ctx.clock.isoNow();
  for (const item of items) {
    if (!item.removed && item.availability === "AVAILABILITY_CAN_BE_REQUESTED") {
      ctx.state.requestGroupItems.replace({
        ...item,
        availability: "AVAILABILITY_BUILDING",
        updateTime: now,
      });
    }
  }
  const next: RequestGroupRecord = {
    ...group,
    forCveRemediation,
    submitTime: now,
    submittedBy: access.identityUid ?? "",
    updateTime: now,
    itemsUpdateTime: now,
  };
  ctx.state.requestGroups.replace(next);
  ctx.state.touch();
  return ok(groupOut(ctx.state, next));
};

/** `:removeItems` and `:restoreItems`: every uid an item of the draft, all or none. */
function itemsAction(removed: boolean): kit.CollectionHandler {
  return async (ctx, request, uid) => {
    if (request.method !== "POST" || uid === undefined) throw kit.unsupported(request);
    const access = await kit.callerOf(ctx, request, true);
    const group = loadGroup(ctx, access, uid, CAP.items);
    const names = optionalStringArray(bodyObject(request), "itemUids") ?? [];
    if (names.length === 0) throw invalidArgument("itemUids", "is required");
    requireDraft(group);
    const found = names.map((name, index) => {
      const item = ctx.state.requestGroupItems.get(name);
      if (!item || (kit.parentOf(name) ?? "") !== group.uid) {
        throw invalidArgument(
          `itemUids[${index}]`,
          "must be the uid of an item of this request group",
        );
      }
      return item;
    });
    const now = ctx.clock.isoNow();
    let changed = 0;
    for (const item of new Set(found)) {
      if (item.removed === removed) continue;
      ctx.state.requestGroupItems.replace({ ...item, removed, updateTime: now });
      changed++;
    }
    if (changed > 0) {
      ctx.state.requestGroups.replace({ ...group, itemsUpdateTime: now });
      ctx.state.touch();
    }
    return ok({
      uid: group.uid,
      parentId: kit.parentOf(group.uid) ?? "",
      [removed ? "removedCount" : "restoredCount"]: changed,
      availabilitySummary: summaryOf(itemsOf(ctx.state, group.uid)),
    });
  };
}

export const removeRequestGroupItems = itemsAction(true);
export const restoreRequestGroupItems = itemsAction(false);

/** `:refreshCoverage`: the coverage check again, against the artifacts seeded now. */
export const refreshCoverage: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "POST" || uid === undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const group = loadGroup(ctx, access, uid, CAP.refresh);
  const now = ctx.clock.isoNow();
  let changed = false;
  for (const item of itemsOf(ctx.state, group.uid)) {
    if (item.availability === "AVAILABILITY_BUILDING" && group.submitTime) continue;
    const next = { ...item, ...coverage(ctx.state, item) };
    if (!next.upgrade) delete next.upgrade;
    if (JSON.stringify(next) !== JSON.stringify(item)) {
      ctx.state.requestGroupItems.replace({ ...next, updateTime: now });
      changed = true;
    }
  }
  const refreshed: RequestGroupRecord = changed ? { ...group, itemsUpdateTime: now } : group;
  if (changed) {
    ctx.state.requestGroups.replace(refreshed);
    ctx.state.touch();
  }
  return ok(groupOut(ctx.state, refreshed));
};

// ---------------------------------------------------------------- requested libraries

interface LibraryRow {
  uid: string;
  name: string;
  ecosystem: string;
  versions: Map<string, { items: RequestGroupItemRecord[]; groups: RequestGroupRecord[] }>;
  groups: Map<string, RequestGroupRecord>;
  lastRequestTime: string;
  createTime: string;
  updateTime: string;
}

/** The submitted, live groups of `parent` and their parsed, kept items, by library. */
function libraries(state: State, parent: string): Map<string, LibraryRow> {
  const rows = new Map<string, LibraryRow>();
  const { uids, start, end } = state.requestGroups.childrenOf(parent);
  for (const groupUid of uids.slice(start, end)) {
    const group = state.requestGroups.get(groupUid);
    if (!group?.submitTime || group.status === "REQUEST_GROUP_STATUS_CANCELED") continue;
    for (const item of itemsOf(state, groupUid)) {
      if (item.removed || item.packageName === "") continue;
      const key = `${item.ecosystem} ${item.packageName}`;
      const row: LibraryRow = rows.get(key) ?? {
        uid: createHash("sha256").update(key).digest("hex").slice(0, 40),
        name: item.packageName,
        ecosystem: item.ecosystem,
        versions: new Map(),
        groups: new Map(),
        lastRequestTime: group.submitTime,
        createTime: group.submitTime,
        updateTime: group.submitTime,
      };
      const version: { items: RequestGroupItemRecord[]; groups: RequestGroupRecord[] } =
        row.versions.get(item.version) ?? { items: [], groups: [] };
      version.items.push(item);
      if (!version.groups.includes(group)) version.groups.push(group);
      row.versions.set(item.version, version);
      row.groups.set(group.uid, group);
      if (group.submitTime > row.lastRequestTime) row.lastRequestTime = group.submitTime;
      row.updateTime = row.lastRequestTime;
      rows.set(key, row);
    }
  }
  return rows;
}

function buildStatusOf(row: LibraryRow): string {
  const all = [...row.versions.values()].map((v) => v.items[0].availability);
  const buildable = all.filter(
    (a) => a !== "AVAILABILITY_WONT_BUILD" && a !== "AVAILABILITY_NOT_FOUND_UPSTREAM",
  );
  if (buildable.length === 0) return "REQUESTED_LIBRARY_BUILD_STATUS_WONT_BUILD";
  if (buildable.every((a) => a === "AVAILABILITY_BUILT"))
    return "REQUESTED_LIBRARY_BUILD_STATUS_COMPLETE";
  if (
    buildable.some(
      (a) =>
        a === "AVAILABILITY_BUILT" ||
        a === "AVAILABILITY_BUILDING" ||
        a === "AVAILABILITY_BUILD_FAILED",
    )
  ) {
    return "REQUESTED_LIBRARY_BUILD_STATUS_IN_PROGRESS";
  }
  return "REQUESTED_LIBRARY_BUILD_STATUS_REVIEWING";
}

const refOf = (group: RequestGroupRecord) => ({ uid: group.uid, name: group.name });
/** The contributing groups a row lists; `contributingGroupCount` gives the true total. */
const MAX_CONTRIBUTING = 10;

/** A list over computed rows, with the API's paging (its tokens bound to the query). */
function listRows<T extends { uid: string; name: string; createTime: string; updateTime: string }>(
  ctx: kit.EmulatorContext,
  query: URLSearchParams,
  key: string,
  filterKey: string,
  rows: T[],
): { items: T[]; nextPageToken: string; totalCount: number; skipped: number } {
  const collection = new IndexedCollection<T>(
    (row) => row.name,
    () => "",
  );
  collection.insertMany(rows);
  const params = parseListParams(query, [], {
    nameFilter: false,
    defaultOrder: { field: "name", descending: false },
  });
  params.filters[key] = filterKey;
  return runList<T>({
    collectionKey: key,
    collection,
    params,
    sortValue: kit.sortValueOf<T>((row) => row.name),
    scopeParentOf: () => "",
    nowMs: ctx.clock.nowMs(),
    pageTokenKey: ctx.tokens.pageTokenKey,
  });
}

function requireParent(access: Access, query: URLSearchParams): string {
  const parent = query.get("parent") ?? "";
  if (parent === "") throw invalidArgument("parent", "is required");
  kit.requirePathUid(parent, "parent");
  access.require(CAP.list, parent);
  return parent;
}

/** `GET /libraries/v2beta1/requestedLibraries` and `requestedLibraries:versions`. */
export const requestedLibraries: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const { query } = request;
  const parent = requireParent(access, query);
  const ecosystemText = query.get("ecosystem") ?? "";
  const ecosystem =
    ecosystemText === "" || ecosystemText === "0" || ecosystemText === "ECOSYSTEM_UNSPECIFIED"
      ? undefined
      : ecosystemOf(ecosystemText, "ecosystem");
  const text = (query.get("query") ?? "").toLowerCase();
  const buildStatus = query.get("build_status") ?? query.get("buildStatus") ?? "";
  const rows = [...libraries(ctx.state, parent).values()]
    .filter(
      (row) => (!ecosystem || row.ecosystem === ecosystem) && row.name.toLowerCase().includes(text),
    )
    .filter((row) => buildStatus === "" || buildStatusOf(row) === buildStatus);
  const result = listRows(
    ctx,
    query,
    "requestedLibraries",
    JSON.stringify([parent, ecosystem ?? "", text, buildStatus]),
    rows,
  );
  return kit.listEnvelope("requestedLibraries", result, (row) => {
    const versions = [...row.versions.values()];
    const groups = [...row.groups.values()];
    return {
      name: row.name,
      ecosystem: row.ecosystem,
      buildStatus: buildStatusOf(row),
      cveStatus: "REQUESTED_LIBRARY_CVE_STATUS_UNSPECIFIED",
      requestedVersionCount: versions.length,
      builtVersionCount: versions.filter((v) => v.items[0].availability === "AVAILABILITY_BUILT")
        .length,
      remediatedCveCount: 0,
      sources: [...new Set(groups.map((group) => group.source))],
      contributingGroups: groups.slice(0, MAX_CONTRIBUTING).map(refOf),
      contributingGroupCount: groups.length,
      lastRequestTime: row.lastRequestTime,
    };
  });
};

export const requestedLibraryVersions: kit.CollectionHandler = async (ctx, request, uid) => {
  if (request.method !== "GET" || uid !== undefined) throw kit.unsupported(request);
  const access = await kit.callerOf(ctx, request, true);
  const { query } = request;
  const parent = requireParent(access, query);
  const name = query.get("name") ?? "";
  if (name === "") throw invalidArgument("name", "is required");
  const ecosystem = ecosystemOf(query.get("ecosystem") ?? "", "ecosystem");
  const availability = enumOf(AVAILABILITIES, query.get("availability"), "availability");
  const row = libraries(ctx.state, parent).get(`${ecosystem} ${name}`);
  const versions = [...(row?.versions.entries() ?? [])]
    .filter(([, v]) => !availability || v.items[0].availability === availability)
    .map(([version, v]) => {
      const last = v.groups.reduce(
        (best, g) => ((g.submitTime ?? "") > best ? (g.submitTime ?? "") : best),
        "",
      );
      return {
        uid: createHash("sha256").update(version).digest("hex").slice(0, 40),
        name: version,
        createTime: last,
        updateTime: last,
        v,
      };
    });
  const result = listRows(
    ctx,
    query,
    "requestedLibraryVersions",
    JSON.stringify([parent, name, ecosystem, availability ?? ""]),
    versions,
  );
  return kit.listEnvelope("requestedLibraryVersions", result, (entry) => {
    const first = entry.v.items[0];
    return {
      version: entry.name,
      availability: first.availability,
      availabilityReason: first.availabilityReason,
      ...(first.upgrade ? { upgrade: first.upgrade } : {}),
      sources: [...new Set(entry.v.groups.map((g) => g.source))],
      requestedBy: [...new Set(entry.v.groups.map((g) => g.submittedBy ?? g.createdBy))],
      contributingGroups: entry.v.groups.map(refOf),
      lastRequestTime: entry.updateTime,
    };
  });
};
