/**
 * `POST /emulator/seed` (docs/emulator.md, "Test controls"): the seed body read and
 * checked whole (groups, repos with their tags, advisories, documents, vulnerability
 * metadata, Libraries artifacts, generated groups or repos), then applied; a refused
 * seed changes nothing.
 */

import { createHash } from "node:crypto";
import type { EmulatorContext } from "./api";
import {
  ADVISORY_EVENT_TYPES,
  DEFAULT_COMPONENT_LOCATION,
  REVIEW_STATES,
  SEVERITY_TYPES,
} from "./collections/advisories";
import { ecosystemOf } from "./collections/artifacts";
import { CATALOG_TIERS } from "./collections/repos";
import { invalidArgument } from "./errors";
import type { CollectionName, RecordOf } from "./kinds";
import type {
  AdvisoryDocumentRecord,
  AdvisoryRecord,
  ArtifactRecord,
  ArtifactVersionRecord,
  GroupRecord,
  ImagePlatformRecord,
  RepoRecord,
  ResolvedVulnRecord,
  TagRecord,
  VulnerabilityMetadataRecord,
} from "./model";
import { NAME_PATTERN, NAME_PATTERN_TEXT } from "./model";
import {
  type JsonObject,
  optionalBoolean,
  optionalNumber,
  optionalObject,
  optionalString,
  optionalStringArray,
} from "./requests";
import { type Change, childSegment, flatUid } from "./state";

/** A record as a seed entry gives it: the seed adds the uid and the times. */
type Seeded<T> = Omit<T, "uid" | "createTime" | "updateTime">;

/** At most this many records per `generate` call (keeps one call bounded in memory). */
const MAX_GENERATED = 1_000_000;

function array(body: JsonObject, field: string): JsonObject[] {
  const value = body[field];
  if (value === undefined || value === null) return [];
  if (
    !Array.isArray(value) ||
    value.some((item) => typeof item !== "object" || item === null || Array.isArray(item))
  ) {
    throw invalidArgument(field, "must be an array of objects");
  }
  return value as JsonObject[];
}

/** A non-empty string at `field`; `path` names it in the error. */
export function requiredString(body: JsonObject, field: string, path: string): string {
  const value = optionalString(body, field, path);
  if (!value) throw invalidArgument(path, "is required");
  return value;
}

/** A repo's `catalogTier`: a value of the `CatalogTier` enum (default unspecified). */
function catalogTierOf(entry: JsonObject, path: string): string {
  const tier = optionalString(entry, "catalogTier", path) ?? "CATALOG_TIER_UNSPECIFIED";
  if (!(CATALOG_TIERS as readonly string[]).includes(tier)) {
    throw invalidArgument(path, `must be one of ${CATALOG_TIERS.join(", ")}`);
  }
  return tier;
}

function enumValue(entry: JsonObject, field: string, path: string, allowed: readonly string[]) {
  const value = optionalString(entry, field, path) ?? allowed[0];
  if (!allowed.includes(value)) throw invalidArgument(path, `must be one of ${allowed.join(", ")}`);
  return value;
}

/**
 * A seeded advisory in the platform's `Advisory` shape: `advisoryId` and `artifactName`
 * required, `componentName` defaulting to the artifact, each event with at most one
 * `type` member and a `ReviewState`, each severity a `Severity.Type` and a score.
 */
function advisorySpec(entry: JsonObject, at: string, now: string): Omit<AdvisoryRecord, "uid"> {
  const artifactName = requiredString(entry, "artifactName", `${at}.artifactName`);
  const text = (field: string) => optionalString(entry, field, `${at}.${field}`) ?? "";
  const legacyAdvisoryId = optionalString(entry, "legacyAdvisoryId", `${at}.legacyAdvisoryId`);
  const events = array(entry, "events").map((event, index) => {
    const eventAt = `${at}.events[${index}]`;
    const types = Object.values(ADVISORY_EVENT_TYPES).filter((type) => event[type] !== undefined);
    if (types.length > 1) {
      throw invalidArgument(eventAt, `sets ${types.join(" and ")}; an event has one type`);
    }
    for (const type of types) optionalObject(event, type, `${eventAt}.${type}`);
    return {
      ...structuredClone(event),
      uid: optionalString(event, "uid", `${eventAt}.uid`) ?? flatUid(),
      createTime: optionalString(event, "createTime", `${eventAt}.createTime`) ?? now,
      author: optionalString(event, "author", `${eventAt}.author`) ?? "",
      reviewState: enumValue(event, "reviewState", `${eventAt}.reviewState`, REVIEW_STATES),
    };
  });
  const severities = array(entry, "severities").map((severity, index) => ({
    type: enumValue(severity, "type", `${at}.severities[${index}].type`, SEVERITY_TYPES),
    score: requiredString(severity, "score", `${at}.severities[${index}].score`),
  }));
  return {
    advisoryId: requiredString(entry, "advisoryId", `${at}.advisoryId`),
    author: text("author"),
    artifactName,
    artifactType: text("artifactType"),
    artifactArchitecture: text("artifactArchitecture"),
    componentName: optionalString(entry, "componentName", `${at}.componentName`) ?? artifactName,
    componentLocation: text("componentLocation") || DEFAULT_COMPONENT_LOCATION,
    componentType: text("componentType"),
    aliases: optionalStringArray(entry, "aliases", `${at}.aliases`) ?? [],
    events,
    ...(legacyAdvisoryId !== undefined ? { legacyAdvisoryId } : {}),
    severities,
    createTime: now,
    updateTime: now,
  };
}

function requiredName(body: JsonObject, path: string): string {
  const name = requiredString(body, "name", path);
  if (!NAME_PATTERN.test(name)) throw invalidArgument(path, `must match ${NAME_PATTERN_TEXT}`);
  return name;
}

/**
 * A seeded tag's `images`: the platforms of the image its digest names, each
 * `{ "architecture": "linux/amd64", "size": <bytes> }` (what `ImagesService` answers).
 */
function imagesOfSeed(tag: JsonObject, at: string): { images?: ImagePlatformRecord[] } {
  const entries = array(tag, "images");
  if (entries.length === 0) return {};
  const seen = new Set<string>();
  const images = entries.map((entry, index) => {
    const architecture = requiredString(entry, "architecture", `${at}[${index}].architecture`);
    if (!/^[a-z0-9]+\/[a-z0-9_]+(\/[a-z0-9]+)?$/.test(architecture) || seen.has(architecture)) {
      throw invalidArgument(
        `${at}[${index}].architecture`,
        "must be a platform such as linux/amd64, once per tag",
      );
    }
    seen.add(architecture);
    const size = optionalNumber(entry, "size", `${at}[${index}].size`) ?? 0;
    if (!Number.isSafeInteger(size) || size < 0) {
      throw invalidArgument(`${at}[${index}].size`, "must be a whole number of bytes");
    }
    return { architecture, size };
  });
  return { images };
}

/** A list of `{ type, score }` severities at `at`, each type a `Severity.Type`. */
function severitiesOfSeed(entry: JsonObject, field: string, at: string) {
  return array(entry, field).map((severity, index) => {
    const type = requiredString(severity, "type", `${at}[${index}].type`);
    if (!(SEVERITY_TYPES as readonly string[]).includes(type)) {
      throw invalidArgument(`${at}[${index}].type`, `must be one of ${SEVERITY_TYPES.join(", ")}`);
    }
    return { type, score: requiredString(severity, "score", `${at}[${index}].score`) };
  });
}

/** A seeded tag's `resolvedVulns`: `{ date: "YYYY-MM-DD", id, aliases?, cvssSeverities? }`. */
function resolvedVulnsOfSeed(
  tag: JsonObject,
  at: string,
): { resolvedVulns?: ResolvedVulnRecord[] } {
  const entries = array(tag, "resolvedVulns");
  if (entries.length === 0) return {};
  return {
    resolvedVulns: entries.map((entry, index) => {
      const date = requiredString(entry, "date", `${at}[${index}].date`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
        throw invalidArgument(`${at}[${index}].date`, "must be a day, YYYY-MM-DD");
      }
      return {
        date,
        id: requiredString(entry, "id", `${at}[${index}].id`),
        aliases: optionalStringArray(entry, "aliases", `${at}[${index}].aliases`) ?? [],
        cvssSeverities: severitiesOfSeed(entry, "cvssSeverities", `${at}[${index}].cvssSeverities`),
      };
    }),
  };
}

/** The members of `DocumentEvent`'s `data` one-of. */
const DOCUMENT_EVENT_MEMBERS = [
  "truePositiveDetermination",
  "falsePositiveDetermination",
  "fixed",
  "detection",
  "analysisNotPlanned",
  "fixNotPlanned",
  "pendingUpstreamFix",
];

/** A seeded advisory document: `{ id, advisories: [{ id, aliases?, packageNamespace?, events? }] }`. */
function documentOfSeed(entry: JsonObject, at: string): Seeded<AdvisoryDocumentRecord> {
  return {
    id: requiredString(entry, "id", `${at}.id`),
    advisories: array(entry, "advisories").map((advisory, index) => {
      const advisoryAt = `${at}.advisories[${index}]`;
      return {
        id: requiredString(advisory, "id", `${advisoryAt}.id`),
        aliases: optionalStringArray(advisory, "aliases", `${advisoryAt}.aliases`) ?? [],
        packageNamespace:
          optionalString(advisory, "packageNamespace", `${advisoryAt}.packageNamespace`) ?? "",
        events: array(advisory, "events").map((event, eventIndex) => {
          const eventAt = `${advisoryAt}.events[${eventIndex}]`;
          const timestamp = requiredString(event, "timestamp", `${eventAt}.timestamp`);
          if (Number.isNaN(Date.parse(timestamp)) || !/^\d{4}-\d{2}-\d{2}T/.test(timestamp)) {
            throw invalidArgument(`${eventAt}.timestamp`, "must be an RFC 3339 timestamp");
          }
          const members = Object.keys(event).filter((key) => key !== "timestamp");
          if (members.length > 1 || members.some((key) => !DOCUMENT_EVENT_MEMBERS.includes(key))) {
            throw invalidArgument(eventAt, `may carry one of ${DOCUMENT_EVENT_MEMBERS.join(", ")}`);
          }
          return structuredClone(event);
        }),
      };
    }),
  };
}

/** Seeded metadata of a vulnerability id: `{ id, summary?, details?, references?, severities? }`. */
function metadataOfSeed(entry: JsonObject, at: string): Seeded<VulnerabilityMetadataRecord> {
  return {
    id: requiredString(entry, "id", `${at}.id`),
    summary: optionalString(entry, "summary", `${at}.summary`) ?? "",
    details: optionalString(entry, "details", `${at}.details`) ?? "",
    references: array(entry, "references").map((reference, index) => {
      const type = requiredString(reference, "type", `${at}.references[${index}].type`);
      if (!REFERENCE_TYPES.includes(type)) {
        throw invalidArgument(
          `${at}.references[${index}].type`,
          `must be one of ${REFERENCE_TYPES.join(", ")}`,
        );
      }
      return { type, url: requiredString(reference, "url", `${at}.references[${index}].url`) };
    }),
    severities: severitiesOfSeed(entry, "severities", `${at}.severities`),
  };
}

interface ArtifactSpec {
  name: string;
  ecosystem: string;
  description: string;
  remediated: boolean;
  cudaVersions: string[];
  versions: Array<{ version: string; description: string; sizeBytes: number; createTime?: string }>;
}

/**
 * A seeded Libraries artifact: `{ name, ecosystem, description?, remediated?,
 * cudaVersions?, versions?: [{ version, description?, sizeBytes?, createTime? }] }`.
 */
function artifactOfSeed(entry: JsonObject, at: string): ArtifactSpec {
  const seen = new Set<string>();
  return {
    name: requiredString(entry, "name", `${at}.name`),
    ecosystem: ecosystemOf(
      requiredString(entry, "ecosystem", `${at}.ecosystem`),
      `${at}.ecosystem`,
    ),
    description: optionalString(entry, "description", `${at}.description`) ?? "",
    remediated: optionalBoolean(entry, "remediated", `${at}.remediated`) ?? false,
    cudaVersions: optionalStringArray(entry, "cudaVersions", `${at}.cudaVersions`) ?? [],
    versions: array(entry, "versions").map((version, index) => {
      const versionAt = `${at}.versions[${index}]`;
      const name = requiredString(version, "version", `${versionAt}.version`);
      if (seen.has(name)) throw invalidArgument(`${versionAt}.version`, "is listed twice");
      seen.add(name);
      const sizeBytes = optionalNumber(version, "sizeBytes", `${versionAt}.sizeBytes`) ?? 0;
      if (!Number.isSafeInteger(sizeBytes) || sizeBytes < 0) {
        throw invalidArgument(`${versionAt}.sizeBytes`, "must be a whole number of bytes");
      }
      const createTime = optionalString(version, "createTime", `${versionAt}.createTime`);
      if (createTime !== undefined && Number.isNaN(Date.parse(createTime))) {
        throw invalidArgument(`${versionAt}.createTime`, "must be an RFC 3339 timestamp");
      }
      return {
        version: name,
        description: optionalString(version, "description", `${versionAt}.description`) ?? "",
        sizeBytes,
        ...(createTime === undefined ? {} : { createTime: new Date(createTime).toISOString() }),
      };
    }),
  };
}

/** `Reference.Type` of the advisory definitions. */
const REFERENCE_TYPES = [
  "TYPE_UNSPECIFIED",
  "TYPE_ADVISORY",
  "TYPE_ARTICLE",
  "TYPE_DETECTION",
  "TYPE_DISCUSSION",
  "TYPE_REPORT",
  "TYPE_FIX",
  "TYPE_INTRODUCED",
  "TYPE_PACKAGE",
  "TYPE_EVIDENCE",
  "TYPE_WEB",
];

/**
 * Validates the whole request (every field and every parent), then applies it; should
 * applying still fail, what it had added is removed again: a refused seed changes nothing.
 */
export function seed(ctx: EmulatorContext, body: JsonObject): JsonObject {
  const { state } = ctx;
  const now = ctx.clock.isoNow();
  const stamp = { createTime: now, updateTime: now };
  const created = { groups: [] as string[], repos: [] as string[], advisories: [] as string[] };

  const requireGroup = (uid: string, path: string): void => {
    if (!state.groups.has(uid)) throw invalidArgument(path, `no group ${uid}`);
  };

  // Validate everything before changing anything, so a bad entry seeds nothing. Parents
  // must exist already: the uids of groups this call creates are not known to the caller.
  const groupSpecs = array(body, "groups").map((entry, index) => {
    const parentUid = requiredString(entry, "parentUid", `groups[${index}].parentUid`);
    const spec = {
      parentUid,
      name: requiredName(entry, `groups[${index}].name`),
      description: optionalString(entry, "description", `groups[${index}].description`) ?? "",
    };
    requireGroup(parentUid, `groups[${index}].parentUid`);
    return spec;
  });
  const repoSpecs = array(body, "repos").map((entry, index) => {
    const at = `repos[${index}]`;
    const spec = {
      parentUid: requiredString(entry, "parentUid", `${at}.parentUid`),
      name: requiredName(entry, `${at}.name`),
      description: optionalString(entry, "description", `${at}.description`) ?? "",
      public: optionalBoolean(entry, "public", `${at}.public`) ?? false,
      catalogTier: catalogTierOf(entry, `${at}.catalogTier`),
      aliases: optionalStringArray(entry, "aliases", `${at}.aliases`) ?? [],
      tags: array(entry, "tags").map((tag, tagIndex) => {
        const tagAt = `${at}.tags[${tagIndex}]`;
        const name = requiredString(tag, "name", `${tagAt}.name`);
        return {
          name,
          digest:
            optionalString(tag, "digest", `${tagAt}.digest`) ??
            `sha256:${createHash("sha256").update(`${at}:${name}`).digest("hex")}`,
          deprecated: optionalBoolean(tag, "deprecated", `${tagAt}.deprecated`) ?? false,
          ...imagesOfSeed(tag, `${tagAt}.images`),
          ...resolvedVulnsOfSeed(tag, `${tagAt}.resolvedVulns`),
        };
      }),
    };
    requireGroup(spec.parentUid, `${at}.parentUid`);
    return spec;
  });
  const advisorySpecs = array(body, "advisories").map((entry, index) =>
    advisorySpec(entry, `advisories[${index}]`, now),
  );
  const documentSpecs = array(body, "documents").map((entry, index) =>
    documentOfSeed(entry, `documents[${index}]`),
  );
  const metadataSpecs = array(body, "vulnerabilityMetadata").map((entry, index) =>
    metadataOfSeed(entry, `vulnerabilityMetadata[${index}]`),
  );
  const artifactSpecs = array(body, "artifacts").map((entry, index) =>
    artifactOfSeed(entry, `artifacts[${index}]`),
  );
  const generate = optionalObject(body, "generate");
  let generateSpec:
    | { kind: string; count: number; parentUid: string; namePrefix: string }
    | undefined;
  if (generate) {
    const kind = requiredString(generate, "kind", "generate.kind");
    if (kind !== "groups" && kind !== "repos") {
      throw invalidArgument("generate.kind", 'must be "groups" or "repos"');
    }
    const count = optionalNumber(generate, "count", "generate.count");
    if (count === undefined || !Number.isInteger(count) || count < 0 || count > MAX_GENERATED) {
      throw invalidArgument("generate.count", `must be an integer from 0 to ${MAX_GENERATED}`);
    }
    const parentUid = requiredString(generate, "parentUid", "generate.parentUid");
    requireGroup(parentUid, "generate.parentUid");
    const namePrefix =
      optionalString(generate, "namePrefix", "generate.namePrefix") ?? kind.slice(0, -1);
    // Generated names are `<namePrefix>-<index>`: they must be valid names too.
    if (!NAME_PATTERN.test(`${namePrefix}-0`)) {
      throw invalidArgument(
        "generate.namePrefix",
        `must make names that match ${NAME_PATTERN_TEXT} (as <namePrefix>-<index>)`,
      );
    }
    generateSpec = { kind, count, parentUid, namePrefix };
  }

  // Everything added so far, so that a failure while applying can take it back.
  const added: Change[] = [];
  /** Stores `record` in `name`, noted so that a failure takes it back. */
  const add = <N extends CollectionName>(name: N, record: RecordOf<N>): void => {
    state.collection(name).insert(record);
    added.push(["del", name, record.uid]);
  };
  try {
    for (const spec of groupSpecs) {
      const group: GroupRecord = {
        uid: `${spec.parentUid}/${childSegment()}`,
        name: spec.name,
        description: spec.description,
        resourceLimits: {},
        verified: false,
        ...stamp,
      };
      add("groups", group);
      created.groups.push(group.uid);
    }
    for (const spec of repoSpecs) {
      const repo: RepoRecord = {
        uid: `${spec.parentUid}/${childSegment()}`,
        name: spec.name,
        description: spec.description,
        catalogTier: spec.catalogTier,
        aliases: spec.aliases,
        public: spec.public,
        ...stamp,
      };
      add("repos", repo);
      created.repos.push(repo.uid);
      for (const tag of spec.tags) {
        const record: TagRecord = { uid: `${repo.uid}/${childSegment()}`, ...tag, ...stamp };
        add("tags", record);
      }
    }
    for (const spec of advisorySpecs) {
      const advisory: AdvisoryRecord = { uid: flatUid(), ...spec };
      add("advisories", advisory);
      created.advisories.push(advisory.uid);
    }
    for (const spec of documentSpecs) {
      const document: AdvisoryDocumentRecord = { uid: flatUid(), ...spec, ...stamp };
      add("documents", document);
    }
    for (const spec of artifactSpecs) {
      const { versions, ...fields } = spec;
      const artifact: ArtifactRecord = { uid: flatUid(), ...fields, ...stamp };
      add("artifacts", artifact);
      for (const version of versions) {
        const record: ArtifactVersionRecord = {
          uid: `${artifact.uid}/${childSegment()}`,
          version: version.version,
          description: version.description,
          sizeBytes: version.sizeBytes,
          createTime: version.createTime ?? now,
          updateTime: version.createTime ?? now,
        };
        add("artifactVersions", record);
      }
    }
    for (const spec of metadataSpecs) {
      const metadata: VulnerabilityMetadataRecord = { uid: flatUid(), ...spec, ...stamp };
      add("vulnerabilityMetadata", metadata);
    }
    if (generateSpec) {
      const { kind, count, parentUid, namePrefix } = generateSpec;
      const width = String(count).length;
      const uids = new Set<string>();
      while (uids.size < count) {
        const uid = `${parentUid}/${childSegment()}`;
        // A fresh uid, unlike any already stored (insertMany would refuse a duplicate).
        if (!state.groups.has(uid) && !state.repos.has(uid)) uids.add(uid);
      }
      const ordered = [...uids];
      if (kind === "groups") {
        const records: GroupRecord[] = ordered.map((uid, index) => ({
          uid,
          name: `${namePrefix}-${String(index).padStart(width, "0")}`,
          description: "",
          resourceLimits: {},
          verified: false,
          ...stamp,
        }));
        state.groups.insertMany(records);
        for (const uid of ordered) added.push(["del", "groups", uid]);
        created.groups.push(...ordered);
      } else {
        const records: RepoRecord[] = ordered.map((uid, index) => ({
          uid,
          name: `${namePrefix}-${String(index).padStart(width, "0")}`,
          description: "",
          catalogTier: "CATALOG_TIER_UNSPECIFIED",
          aliases: [],
          public: false,
          ...stamp,
        }));
        state.repos.insertMany(records);
        for (const uid of ordered) added.push(["del", "repos", uid]);
        created.repos.push(...ordered);
      }
    }
  } catch (error) {
    for (const change of added.reverse()) state.applyChange(change);
    state.touch();
    throw error;
  }
  state.touch();
  return created;
}
