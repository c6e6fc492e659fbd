/**
 * Test controls under `/emulator/` (docs/architecture.md, "Emulator: test
 * controls"): request log, faults, clock, seed data, tokens, rate limiting.
 * They need no token and are never logged.
 */

import { createHash } from "node:crypto";
import type { EmulatorContext } from "./api";
import { invalidArgument, notFound } from "./errors";
import type { FaultTable, RateLimiter } from "./faults";
import type { AdvisoryRecord, GroupRecord, RepoRecord, TagRecord } from "./model";
import { NAME_PATTERN, NAME_PATTERN_TEXT } from "./model";
import type { RequestLog } from "./request-log";
import {
  type ApiRequest,
  type ApiResponse,
  bodyObject,
  type JsonObject,
  ok,
  optionalBoolean,
  optionalNumber,
  optionalObject,
  optionalString,
  optionalStringArray,
} from "./requests";
import { childSegment, flatUid } from "./state";

export interface ControlDeps {
  ctx: EmulatorContext;
  log: RequestLog;
  faults: FaultTable;
  rateLimiter: RateLimiter;
}

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

function requiredString(body: JsonObject, field: string, path: string): string {
  const value = optionalString(body, field, path);
  if (!value) throw invalidArgument(path, "is required");
  return value;
}

function requiredName(body: JsonObject, path: string): string {
  const name = requiredString(body, "name", path);
  if (!NAME_PATTERN.test(name)) throw invalidArgument(path, `must match ${NAME_PATTERN_TEXT}`);
  return name;
}

export async function handleControl(deps: ControlDeps, request: ApiRequest): Promise<ApiResponse> {
  const { ctx, log, faults, rateLimiter } = deps;
  switch (`${request.method} ${request.path}`) {
    case "GET /emulator/requests":
      return ok({ requests: log.list() });
    case "DELETE /emulator/requests":
      log.clear();
      return ok({});
    case "GET /emulator/connections":
      return ok({ ...log.connections() });
    case "POST /emulator/faults": {
      const fault = faults.add(bodyObject(request));
      return ok({ id: fault.id });
    }
    case "DELETE /emulator/faults":
      faults.clear();
      return ok({});
    case "POST /emulator/clock": {
      const seconds = optionalNumber(bodyObject(request), "advanceSeconds");
      if (seconds === undefined || seconds < 0) {
        throw invalidArgument("advanceSeconds", "must be a non-negative number");
      }
      ctx.clock.advance(seconds);
      ctx.state.touch();
      return ok({ now: ctx.clock.isoNow() });
    }
    case "GET /emulator/clock":
      return ok({ now: ctx.clock.isoNow() });
    case "POST /emulator/tokens": {
      const body = bodyObject(request);
      const identityUid = requiredString(body, "identityUid", "identityUid");
      const ttlSeconds = optionalNumber(body, "ttlSeconds") ?? 3600;
      if (!ctx.state.identities.has(identityUid)) throw notFound(identityUid);
      const token = await ctx.tokens.mintApiToken(identityUid, ttlSeconds, ctx.clock.now());
      return ok({ token });
    }
    case "POST /emulator/rate-limit": {
      const body = bodyObject(request);
      const perSecond = optionalNumber(body, "requestsPerSecond");
      if (perSecond === undefined || perSecond < 0) {
        throw invalidArgument("requestsPerSecond", "must be a non-negative number");
      }
      rateLimiter.configure(perSecond, optionalNumber(body, "retryAfter"));
      return ok({});
    }
    case "POST /emulator/seed":
      return ok(seed(ctx, bodyObject(request)));
    default:
      throw notFound(`${request.method} ${request.path}`);
  }
}

function seed(ctx: EmulatorContext, body: JsonObject): JsonObject {
  const { state } = ctx;
  const now = ctx.clock.isoNow();
  const stamp = { createTime: now, updateTime: now };
  const created = { groups: [] as string[], repos: [] as string[], advisories: [] as string[] };

  const requireGroup = (uid: string, path: string): void => {
    if (!state.groups.has(uid)) throw invalidArgument(path, `no group ${uid}`);
  };

  // Validate everything before changing anything, so a bad entry seeds nothing.
  const groupSpecs = array(body, "groups").map((entry, index) => {
    const parentUid = requiredString(entry, "parentUid", `groups[${index}].parentUid`);
    return {
      parentUid,
      name: requiredName(entry, `groups[${index}].name`),
      description: optionalString(entry, "description", `groups[${index}].description`) ?? "",
    };
  });
  const repoSpecs = array(body, "repos").map((entry, index) => {
    const at = `repos[${index}]`;
    return {
      parentUid: requiredString(entry, "parentUid", `${at}.parentUid`),
      name: requiredName(entry, `${at}.name`),
      description: optionalString(entry, "description", `${at}.description`) ?? "",
      public: optionalBoolean(entry, "public", `${at}.public`) ?? false,
      catalogTier: optionalString(entry, "catalogTier", `${at}.catalogTier`) ?? "FREE",
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
        };
      }),
    };
  });
  const advisorySpecs = array(body, "advisories").map((entry, index) => {
    const at = `advisories[${index}]`;
    return {
      advisoryId: requiredString(entry, "advisoryId", `${at}.advisoryId`),
      packageName: requiredString(entry, "packageName", `${at}.packageName`),
      severity: requiredString(entry, "severity", `${at}.severity`),
      aliases: optionalStringArray(entry, "aliases", `${at}.aliases`) ?? [],
    };
  });
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
    generateSpec = { kind, count, parentUid, namePrefix };
  }

  // Groups may name, as parent, a group created earlier in the same call.
  for (const [index, spec] of groupSpecs.entries()) {
    requireGroup(spec.parentUid, `groups[${index}].parentUid`);
    const group: GroupRecord = {
      uid: `${spec.parentUid}/${childSegment()}`,
      name: spec.name,
      description: spec.description,
      resourceLimits: {},
      verified: false,
      ...stamp,
    };
    state.groups.insert(group);
    created.groups.push(group.uid);
  }
  for (const [index, spec] of repoSpecs.entries()) {
    requireGroup(spec.parentUid, `repos[${index}].parentUid`);
    const repo: RepoRecord = {
      uid: `${spec.parentUid}/${childSegment()}`,
      name: spec.name,
      description: spec.description,
      catalogTier: spec.catalogTier,
      aliases: spec.aliases,
      public: spec.public,
      ...stamp,
    };
    state.repos.insert(repo);
    created.repos.push(repo.uid);
    for (const tag of spec.tags) {
      const record: TagRecord = { uid: `${repo.uid}/${childSegment()}`, ...tag, ...stamp };
      state.tags.insert(record);
    }
  }
  for (const spec of advisorySpecs) {
    const advisory: AdvisoryRecord = { uid: flatUid(), ...spec, ...stamp };
    state.advisories.insert(advisory);
    created.advisories.push(advisory.uid);
  }
  if (generateSpec) {
    const { kind, count, parentUid, namePrefix } = generateSpec;
    const width = String(count).length;
    const uids = new Set<string>();
    while (uids.size < count) uids.add(`${parentUid}/${childSegment()}`);
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
      created.groups.push(...ordered);
    } else {
      const records: RepoRecord[] = ordered.map((uid, index) => ({
        uid,
        name: `${namePrefix}-${String(index).padStart(width, "0")}`,
        description: "",
        catalogTier: "FREE",
        aliases: [],
        public: false,
        ...stamp,
      }));
      state.repos.insertMany(records);
      created.repos.push(...ordered);
    }
  }
  state.touch();
  return created;
}
