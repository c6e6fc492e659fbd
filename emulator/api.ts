/**
 * The API itself: IAM v2beta1, Registry and Vulnerabilities v2beta1, the v1
 * paths, the token exchange and the OIDC test issuer. Handlers take a parsed
 * request and answer a response object (or throw an ApiError); the server does
 * the HTTP.
 */
import { Access, isSameOrBelow } from "./access";
import type { Clock } from "./clock";
import { ApiError, failedPrecondition, invalidArgument, notFound, unauthenticated } from "./errors";
import type { IndexedCollection } from "./indexed-collection";
import { type OrderField, parseListParams, runList } from "./listing";
import {
  type AdvisoryRecord,
  ALL_CAPABILITIES,
  BUILT_IN_ROLES,
  type GroupRecord,
  type IdentityRecord,
  NAME_PATTERN,
  NAME_PATTERN_TEXT,
  type RepoRecord,
  type RoleBindingRecord,
  type RoleRecord,
  type TagRecord,
} from "./model";
import {
  type ApiRequest,
  type ApiResponse,
  bodyObject,
  type JsonObject,
  ok,
  optionalNumber,
  optionalObject,
  optionalString,
  updatePaths,
} from "./requests";
import { childSegment, flatUid, type State } from "./state";
import type { TokenService } from "./tokens";

export interface EmulatorContext {
  state: State;
  clock: Clock;
  tokens: TokenService;
  /** `http://HOST:PORT`: base URL, auth URL and API token audience. */
  origin: string;
}

/** Lifetime of an exchanged API token (specification, "Limits"). */
export const EXCHANGED_TOKEN_TTL_SECONDS = 3600;

const PATH_UID = /^[0-9a-f]{40}(\/[0-9a-f]{16})*$/;
const ROLE_UID = /^[0-9a-f]{40}$/;
/** lastSeenTime is refreshed at most this often, so reads do not rewrite the data file each time. */
/** The test issuer's tokens live at most a year, as the control's API tokens are bounded too. */
const MAX_OIDC_TOKEN_TTL_SECONDS = 365 * 24 * 3600;
const LAST_SEEN_RESOLUTION_MS = 60_000;

// ---------------------------------------------------------------- output shapes

function int64Strings(values: Record<string, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)]));
}

function groupOut(group: GroupRecord): JsonObject {
  return {
    uid: group.uid,
    name: group.name,
    description: group.description,
    resourceLimits: int64Strings(group.resourceLimits),
    verified: group.verified,
    createTime: group.createTime,
    updateTime: group.updateTime,
  };
}

function identityOut(identity: IdentityRecord): JsonObject {
  return {
    uid: identity.uid,
    name: identity.name,
    description: identity.description,
    claimMatch: { ...identity.claimMatch },
    ...(identity.lastSeenTime ? { lastSeenTime: identity.lastSeenTime } : {}),
    createTime: identity.createTime,
    updateTime: identity.updateTime,
  };
}

function roleOut(role: RoleRecord): JsonObject {
  return {
    uid: role.uid,
    name: role.name,
    description: role.description,
    capabilities: [...role.capabilities],
    parentUid: role.parentUid,
    createTime: role.createTime,
    updateTime: role.updateTime,
  };
}

/**
 * A role binding with its hydrated identity, group and role, as `reader` may see them:
 * the name, description, issuer and subject of an object the reader cannot read
 * (`identities.get`, `groups.get`, `roles.get` on a custom role's group) stay empty,
 * only its uid shows. A binding never discloses more than a Get of each object would.
 */
function bindingOut(state: State, binding: RoleBindingRecord, reader: Access): JsonObject {
  const groupUid = parentPath(binding.uid);
  const identity = reader.can("identities.get", binding.identityUid)
    ? state.identities.get(binding.identityUid)
    : undefined;
  const group = reader.can("groups.get", groupUid) ? state.groups.get(groupUid) : undefined;
  const stored = state.roles.get(binding.roleUid);
  const role = stored && roleReadable(reader, stored) ? stored : undefined;
  return {
    uid: binding.uid,
    identity: {
      uid: binding.identityUid,
      name: identity?.name ?? "",
      description: identity?.description ?? "",
      subject: identity?.claimMatch.subject ?? "",
      issuer: identity?.claimMatch.issuer ?? "",
    },
    group: { uid: groupUid, name: group?.name ?? "", description: group?.description ?? "" },
    role: { uid: binding.roleUid, name: role?.name ?? "", description: role?.description ?? "" },
    createTime: binding.createTime,
    updateTime: binding.updateTime,
  };
}

/** Built-in roles are readable by every caller; a custom role by `roles.get` on its group. */
function roleReadable(access: Access, role: RoleRecord, verb: "list" | "get" = "get"): boolean {
  return role.parentUid === "" || access.can(`roles.${verb}`, role.parentUid);
}

function repoOut(repo: RepoRecord): JsonObject {
  return {
    uid: repo.uid,
    name: repo.name,
    description: repo.description,
    catalogTier: repo.catalogTier,
    aliases: [...repo.aliases],
    createTime: repo.createTime,
    updateTime: repo.updateTime,
  };
}

function tagOut(tag: TagRecord): JsonObject {
  return {
    uid: tag.uid,
    name: tag.name,
    digest: tag.digest,
    deprecated: tag.deprecated,
    createTime: tag.createTime,
    updateTime: tag.updateTime,
  };
}

function advisoryOut(advisory: AdvisoryRecord): JsonObject {
  return {
    uid: advisory.uid,
    advisoryId: advisory.advisoryId,
    aliases: [...advisory.aliases],
    packageName: advisory.packageName,
    severity: advisory.severity,
    createTime: advisory.createTime,
    updateTime: advisory.updateTime,
  };
}

// ---------------------------------------------------------------- helpers

function parentPath(uid: string): string {
  return uid.slice(0, uid.lastIndexOf("/"));
}

function requirePathUid(uid: string, what = "uid"): string {
  if (!PATH_UID.test(uid))
    throw invalidArgument(what, "must be a uid (hex segments separated by /)");
  return uid;
}

function requireName(value: unknown, field = "name"): string {
  if (value !== undefined && value !== null && typeof value !== "string") {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || !NAME_PATTERN.test(value)) {
    throw invalidArgument(field, `must match ${NAME_PATTERN_TEXT}`);
  }
  return value;
}

function requireIssuer(value: unknown, field: string): string {
  if (typeof value !== "string" && value !== undefined && value !== null) {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || value === "") throw invalidArgument(field, "is required");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(field, "must be an http(s) URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalidArgument(field, "must be an http(s) URL");
  }
  return value;
}

function requireSubject(value: unknown, field: string): string {
  if (typeof value !== "string" && value !== undefined && value !== null) {
    throw invalidArgument(field, "must be a string");
  }
  if (typeof value !== "string" || value === "") throw invalidArgument(field, "is required");
  return value;
}

const BUILT_IN_ROLE_NAMES = new Set(BUILT_IN_ROLES.map((role) => role.name));

/** A custom role's name: the common pattern, and never a built-in role's name (addendum, 7). */
function requireCustomRoleName(value: unknown): string {
  const name = requireName(value);
  if (BUILT_IN_ROLE_NAMES.has(name))
    throw invalidArgument("name", "is the name of a built-in role");
  return name;
}

function sameClaimMatch(a: IdentityRecord["claimMatch"], b: IdentityRecord["claimMatch"]): boolean {
  return a.issuer === b.issuer && a.subject === b.subject;
}

function requireCapabilities(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== "string")) {
    throw invalidArgument("capabilities", "must be an array of strings");
  }
  for (const capability of value as string[]) {
    if (!ALL_CAPABILITIES.includes(capability)) {
      throw invalidArgument(
        "capabilities",
        `unknown capability "${capability}" (expected <collection>.<verb>)`,
      );
    }
  }
  return [...new Set(value as string[])].sort();
}

function newChildUid(parentUid: string, taken: (uid: string) => boolean): string {
  for (;;) {
    const uid = `${parentUid}/${childSegment()}`;
    if (!taken(uid)) return uid;
  }
}

function sortValueOf<T extends { uid: string; createTime: string; updateTime: string }>(
  nameOf: (record: T) => string,
): (record: T, field: OrderField) => string {
  return (record, field) => {
    switch (field) {
      case "name":
        return nameOf(record);
      case "createTime":
        return record.createTime;
      case "updateTime":
        return record.updateTime;
      default:
        return record.uid;
    }
  };
}

function listEnvelope<T>(
  key: string,
  result: { items: T[]; nextPageToken: string; totalCount: number; skipped: number },
  shape: (item: T) => JsonObject,
): ApiResponse {
  return ok({
    [key]: result.items.map(shape),
    nextPageToken: result.nextPageToken,
    totalCount: String(result.totalCount),
    skipped: result.skipped,
  });
}

function unsupported(request: ApiRequest): ApiError {
  return new ApiError(
    "UNIMPLEMENTED",
    `Unimplemented: ${request.method} is not supported on ${request.path}`,
  );
}

function countsOfPresent(parts: Array<[number, string, string]>): string[] {
  return parts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
}

// ---------------------------------------------------------------- the API

export class Api {
  constructor(private readonly ctx: EmulatorContext) {}

  private get state(): State {
    return this.ctx.state;
  }

  private now(): string {
    return this.ctx.clock.isoNow();
  }

  /** Answers a request, or undefined when no route of the API matches its path. */
  async handle(request: ApiRequest): Promise<ApiResponse | undefined> {
    const { path, method } = request;
    if (path === "/.well-known/jwks.json" && method === "GET") return ok(this.ctx.tokens.apiJwks());
    if (path.startsWith("/oidc/")) return this.oidc(request);
    if (path === "/sts/exchange") {
      if (method !== "GET") throw unsupported(request);
      return this.exchange(request);
    }
    const match = /^\/(iam|registry|vulnerabilities)\/(v1|v2beta1)\/([A-Za-z]+)(?:\/(.*))?$/.exec(
      path,
    );
    if (!match) return undefined;
    const [, domain, version, collection, rest] = match;
    const uid = rest === undefined || rest === "" ? undefined : rest;
    const route = `${domain}/${version}/${collection}`;
    switch (route) {
      case "iam/v2beta1/groups":
        return this.groups(request, uid);
      case "iam/v2beta1/identities":
        return this.identities(request, uid);
      case "iam/v2beta1/roles":
        return this.roles(request, uid);
      case "iam/v2beta1/roleBindings":
        return this.roleBindings(request, uid);
      case "registry/v2beta1/repos":
        return this.readOnly(
          request,
          uid,
          (access) => this.listRepos(request, access),
          (access, id) => this.getRepo(access, id),
        );
      case "registry/v2beta1/tags":
        return this.readOnly(
          request,
          uid,
          (access) => this.listTags(request, access),
          (access, id) => this.getTag(access, id),
        );
      case "vulnerabilities/v2beta1/advisories":
        return this.readOnly(
          request,
          uid,
          (access) => this.listAdvisories(request, access),
          (access, id) => this.getAdvisory(access, id),
        );
      case "iam/v1/groups":
        if (method !== "GET" || uid !== undefined) throw unsupported(request);
        return this.v1Groups(await this.caller(request, true));
      case "registry/v1/repos":
        if (method !== "GET" || uid !== undefined) throw unsupported(request);
        return this.v1Repos(await this.caller(request, false));
      default:
        return undefined;
    }
  }

  /**
   * Who is calling. A presented token is always checked; without one the caller is
   * anonymous, which only public registry reads accept.
   */
  async caller(request: ApiRequest, required: boolean): Promise<Access> {
    const header = request.authorization;
    if (header === undefined || header === "") {
      if (required) throw unauthenticated("a bearer token is required");
      return new Access(this.state, undefined);
    }
    const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthenticated("the Authorization header must be 'Bearer <token>'");
    const identityUid = await this.ctx.tokens.verifyApiToken(match[1], this.ctx.clock.now());
    const identity = this.state.identities.get(identityUid);
    if (!identity) throw unauthenticated("the token's identity no longer exists");
    this.markSeen(identity);
    return new Access(this.state, identityUid);
  }

  private markSeen(identity: IdentityRecord): void {
    const nowMs = this.ctx.clock.nowMs();
    const last = identity.lastSeenTime ? Date.parse(identity.lastSeenTime) : 0;
    if (nowMs - last >= LAST_SEEN_RESOLUTION_MS) {
      // A replace, not an edit in place: the --data journal records replaced records.
      this.state.identities.replace({ ...identity, lastSeenTime: new Date(nowMs).toISOString() });
      this.state.touch();
    }
  }

  private async readOnly(
    request: ApiRequest,
    uid: string | undefined,
    list: (access: Access) => ApiResponse,
    get: (access: Access, uid: string) => ApiResponse,
  ): Promise<ApiResponse> {
    if (request.method !== "GET") throw unsupported(request);
    const access = await this.caller(request, false);
    return uid === undefined ? list(access) : get(access, uid);
  }

  // ------------------------------------------------------------ groups

  private async groups(request: ApiRequest, uid: string | undefined): Promise<ApiResponse> {
    const access = await this.caller(request, true);
    const groups = this.state.groups;
    switch (request.method) {
      case "GET": {
        if (uid === undefined) {
          const params = parseListParams(request.query);
          const filter = access.listFilter(
            "groups.list",
            params.childrenOf ?? params.descendantsOf,
          );
          const result = runList<GroupRecord>({
            collectionKey: "groups",
            collection: groups,
            params,
            sortValue: sortValueOf<GroupRecord>((group) => group.name),
            predicate: filter && ((group) => filter(group.uid)),
            nowMs: this.ctx.clock.nowMs(),
            pageTokenKey: this.ctx.tokens.pageTokenKey,
          });
          return listEnvelope("groups", result, groupOut);
        }
        requirePathUid(uid);
        access.require("groups.get", uid);
        return ok(groupOut(this.existing(groups, uid)));
      }
      case "POST": {
        if (uid === undefined)
          throw invalidArgument("parent", "the parent group uid belongs in the path");
        requirePathUid(uid, "parent");
        access.require("groups.create", uid);
        const body = bodyObject(request);
        const name = requireName(body.name);
        const description = optionalString(body, "description") ?? "";
        this.existing(groups, uid);
        const now = this.now();
        const group: GroupRecord = {
          uid: newChildUid(uid, (candidate) => groups.has(candidate)),
          name,
          description,
          resourceLimits: {},
          verified: false,
          createTime: now,
          updateTime: now,
        };
        groups.insert(group);
        this.state.touch();
        return ok(groupOut(group));
      }
      case "PATCH": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("groups.update", uid);
        const body = bodyObject(request);
        const { paths } = updatePaths(request, body, ["name", "description"]);
        const current = this.existing(groups, uid);
        const next: GroupRecord = { ...current };
        for (const path of paths) {
          if (path === "name") next.name = requireName(body.name);
          if (path === "description") next.description = optionalString(body, "description") ?? "";
        }
        return ok(
          groupOut(
            this.saveUpdate(current, next, ["name", "description"], (record) =>
              groups.replace(record),
            ),
          ),
        );
      }
      case "DELETE": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("groups.delete", uid);
        this.existing(groups, uid);
        const state = this.state;
        const remaining = countsOfPresent([
          [state.groups.countChildren(uid), "child group", "child groups"],
          [state.identities.countChildren(uid), "identity", "identities"],
          [state.roleBindings.countChildren(uid), "role binding", "role bindings"],
          [state.repos.countChildren(uid), "repo", "repos"],
          [state.roles.countChildren(uid), "custom role", "custom roles"],
        ]);
        if (remaining.length > 0) {
          throw failedPrecondition({
            type: "RESOURCE_NOT_EMPTY",
            subject: uid,
            description: `group ${uid} is not empty: it still has ${remaining.join(", ")}`,
          });
        }
        groups.delete(uid);
        state.touch();
        return ok({});
      }
      default:
        throw unsupported(request);
    }
  }

  /**
   * Stores the result of a PATCH, unless it equals `current` in every writable field:
   * then nothing is written, `updateTime` stays, and the state does not count a change
   * (no rewrite of the `--data` file). Answers the record now stored.
   */
  private saveUpdate<T extends { updateTime: string }>(
    current: T,
    next: T,
    fields: ReadonlyArray<keyof T>,
    store: (record: T) => void,
  ): T {
    const unchanged = fields.every(
      (field) => JSON.stringify(current[field]) === JSON.stringify(next[field]),
    );
    if (unchanged) return current;
    next.updateTime = this.now();
    store(next);
    this.state.touch();
    return next;
  }

  /**
   * Changing how an identity authenticates hands its role bindings to whoever the new
   * claims admit, so it needs what granting those bindings needs: every capability each
   * binding's role grants, on that binding's group (no one grants more than they hold).
   * The refusal names the group when it is the identity's own group or an ancestor (the
   * caller sees those uids in the identity's uid), otherwise the identity, so that it
   * never discloses a group the caller may not know.
   */
  private requireEveryGrantOf(access: Access, identityUid: string): void {
    for (const binding of this.state.bindingsOfIdentity(identityUid)) {
      const role = this.state.roles.get(binding.roleUid);
      if (!role) continue;
      const groupUid = parentPath(binding.uid);
      for (const capability of role.capabilities) {
        if (access.can(capability, groupUid)) continue;
        const where = isSameOrBelow(identityUid, groupUid) ? groupUid : identityUid;
        throw new ApiError(
          "PERMISSION_DENIED",
          `Permission denied: ${capability} on ${where} (identity ${identityUid} holds it through a role binding; changing how an identity authenticates requires every capability its bindings grant)`,
        );
      }
    }
  }

  private existing<T extends { uid: string }>(collection: IndexedCollection<T>, uid: string): T {
    const record = collection.get(uid);
    if (!record) throw notFound(uid);
    return record;
  }

  // ------------------------------------------------------------ identities

  private async identities(request: ApiRequest, uid: string | undefined): Promise<ApiResponse> {
    const access = await this.caller(request, true);
    const identities = this.state.identities;
    const writable = [
      "name",
      "description",
      "claimMatch",
      "claimMatch.issuer",
      "claimMatch.subject",
    ];
    switch (request.method) {
      case "GET": {
        if (uid === undefined) {
          const params = parseListParams(request.query);
          const filter = access.listFilter(
            "identities.list",
            params.childrenOf ?? params.descendantsOf,
          );
          const result = runList<IdentityRecord>({
            collectionKey: "identities",
            collection: identities,
            params,
            sortValue: sortValueOf<IdentityRecord>((identity) => identity.name),
            predicate: filter && ((identity) => filter(identity.uid)),
            nowMs: this.ctx.clock.nowMs(),
            pageTokenKey: this.ctx.tokens.pageTokenKey,
          });
          return listEnvelope("identities", result, identityOut);
        }
        requirePathUid(uid);
        access.require("identities.get", uid);
        return ok(identityOut(this.existing(identities, uid)));
      }
      case "POST": {
        if (uid === undefined)
          throw invalidArgument("parent", "the owning group uid belongs in the path");
        requirePathUid(uid, "parent");
        access.require("identities.create", uid);
        const body = bodyObject(request);
        const name = requireName(body.name);
        const description = optionalString(body, "description") ?? "";
        const claimMatch = optionalObject(body, "claimMatch") ?? {};
        const issuer = requireIssuer(claimMatch.issuer, "claimMatch.issuer");
        const subject = requireSubject(claimMatch.subject, "claimMatch.subject");
        this.existing(this.state.groups, uid);
        const now = this.now();
        const identity: IdentityRecord = {
          // A new identity never takes a uid that a role binding still names: it would
          // inherit that binding's grants (re-creation must not restore access).
          uid: newChildUid(
            uid,
            (candidate) =>
              identities.has(candidate) ||
              this.state.groups.has(candidate) ||
              this.state.countBindingsOfIdentity(candidate) > 0,
          ),
          name,
          description,
          claimMatch: { issuer, subject },
          createTime: now,
          updateTime: now,
        };
        identities.insert(identity);
        this.state.touch();
        return ok(identityOut(identity));
      }
      case "PATCH": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("identities.update", uid);
        const body = bodyObject(request);
        const { paths } = updatePaths(request, body, writable);
        const current = this.existing(identities, uid);
        const next: IdentityRecord = { ...current, claimMatch: { ...current.claimMatch } };
        for (const path of paths) {
          switch (path) {
            case "name":
              next.name = requireName(body.name);
              break;
            case "description":
              next.description = optionalString(body, "description") ?? "";
              break;
            case "claimMatch": {
              const whole = optionalObject(body, "claimMatch") ?? {};
              next.claimMatch = {
                issuer: requireIssuer(whole.issuer, "claimMatch.issuer"),
                subject: requireSubject(whole.subject, "claimMatch.subject"),
              };
              break;
            }
            case "claimMatch.issuer":
              next.claimMatch.issuer = requireIssuer(
                optionalObject(body, "claimMatch")?.issuer,
                "claimMatch.issuer",
              );
              break;
            case "claimMatch.subject":
              next.claimMatch.subject = requireSubject(
                optionalObject(body, "claimMatch")?.subject,
                "claimMatch.subject",
              );
              break;
          }
        }
        if (!sameClaimMatch(current.claimMatch, next.claimMatch)) {
          this.requireEveryGrantOf(access, current.uid);
        }
        return ok(
          identityOut(
            this.saveUpdate(current, next, ["name", "description", "claimMatch"], (record) =>
              identities.replace(record),
            ),
          ),
        );
      }
      case "DELETE": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("identities.delete", uid);
        this.existing(identities, uid);
        const bound = this.state.countBindingsOfIdentity(uid);
        if (bound > 0) {
          throw failedPrecondition({
            type: "RESOURCE_IN_USE",
            subject: uid,
            description: `identity ${uid} still has ${bound} role binding${bound === 1 ? "" : "s"}`,
          });
        }
        identities.delete(uid);
        this.state.touch();
        return ok({});
      }
      default:
        throw unsupported(request);
    }
  }

  // ------------------------------------------------------------ roles

  /**
   * The role `uid` names, if the caller may read it. Role uids are flat: a missing role
   * has no group to check a capability on, so a custom role the caller cannot read
   * answers exactly as a missing one, `NOT_FOUND`, and never names its group.
   */
  private readableRole(access: Access, uid: string): RoleRecord {
    const role = this.state.roles.get(uid);
    if (!role || !roleReadable(access, role)) throw notFound(uid);
    return role;
  }

  private async roles(request: ApiRequest, uid: string | undefined): Promise<ApiResponse> {
    const access = await this.caller(request, true);
    const roles = this.state.roles;
    switch (request.method) {
      case "GET": {
        if (uid === undefined) {
          const result = runList<RoleRecord>({
            collectionKey: "roles",
            collection: roles,
            params: parseListParams(request.query),
            sortValue: sortValueOf<RoleRecord>((role) => role.name),
            predicate: (role) => roleReadable(access, role, "list"),
            scopeParentOf: (role) => role.parentUid,
            nowMs: this.ctx.clock.nowMs(),
            pageTokenKey: this.ctx.tokens.pageTokenKey,
          });
          return listEnvelope("roles", result, roleOut);
        }
        if (!ROLE_UID.test(uid))
          throw invalidArgument("uid", "must be a role uid (40 hex characters)");
        return ok(roleOut(this.readableRole(access, uid)));
      }
      case "POST": {
        if (uid === undefined)
          throw invalidArgument("parent", "the owning group uid belongs in the path");
        requirePathUid(uid, "parent");
        access.require("roles.create", uid);
        const body = bodyObject(request);
        const name = requireCustomRoleName(body.name);
        const description = optionalString(body, "description") ?? "";
        const capabilities = requireCapabilities(body.capabilities);
        this.existing(this.state.groups, uid);
        const now = this.now();
        let roleUid = flatUid();
        while (roles.has(roleUid)) roleUid = flatUid();
        const role: RoleRecord = {
          uid: roleUid,
          name,
          description,
          capabilities,
          parentUid: uid,
          createTime: now,
          updateTime: now,
        };
        roles.insert(role);
        this.state.touch();
        return ok(roleOut(role));
      }
      case "PATCH":
      case "DELETE": {
        if (uid === undefined) throw unsupported(request);
        if (!ROLE_UID.test(uid))
          throw invalidArgument("uid", "must be a role uid (40 hex characters)");
        const verb = request.method === "PATCH" ? "update" : "delete";
        const role = this.readableRole(access, uid);
        if (role.parentUid === "") {
          throw new ApiError(
            "PERMISSION_DENIED",
            `Permission denied: roles.${verb} on ${uid} (built-in roles cannot be changed)`,
          );
        }
        access.require(`roles.${verb}`, role.parentUid);
        if (verb === "delete") {
          const bound = this.state.countBindingsOfRole(uid);
          if (bound > 0) {
            throw failedPrecondition({
              type: "RESOURCE_IN_USE",
              subject: uid,
              description: `role ${uid} is still bound by ${bound} role binding${bound === 1 ? "" : "s"}`,
            });
          }
          roles.delete(uid);
          this.state.touch();
          return ok({});
        }
        const body = bodyObject(request);
        const { paths } = updatePaths(request, body, ["name", "description", "capabilities"]);
        const next: RoleRecord = { ...role };
        for (const path of paths) {
          if (path === "name") next.name = requireCustomRoleName(body.name);
          if (path === "description") next.description = optionalString(body, "description") ?? "";
          if (path === "capabilities") {
            next.capabilities = requireCapabilities(body.capabilities);
            // Widening a role widens every binding of it: like granting a binding, only
            // capabilities the caller holds may be added (else roles.update escalates).
            for (const capability of next.capabilities) {
              if (!role.capabilities.includes(capability))
                access.require(capability, role.parentUid);
            }
          }
        }
        return ok(
          roleOut(
            this.saveUpdate(role, next, ["name", "description", "capabilities"], (record) =>
              roles.replace(record),
            ),
          ),
        );
      }
      default:
        throw unsupported(request);
    }
  }

  // ------------------------------------------------------------ role bindings

  /**
   * The identity and role a binding in `groupUid` may use. The caller must be able to
   * read each object it newly names (a binding answers with the identity's name, issuer
   * and subject, and the role's name), checked before existence so that an identity the
   * caller cannot read answers `PERMISSION_DENIED` whether it exists or not, and a custom
   * role it cannot read answers `NOT_FOUND` exactly as a missing one (role uids are flat).
   * A custom role must belong to the group or one of its ancestors, and the caller must
   * hold every capability of the role on the group (no one grants more than they hold).
   * `current` is the binding being updated: values it already holds are not read again.
   */
  private checkBindingTarget(
    access: Access,
    groupUid: string,
    identityUid: string,
    roleUid: string,
    current?: RoleBindingRecord,
  ): void {
    if (!PATH_UID.test(identityUid)) {
      throw invalidArgument("identityUid", "must be an identity uid (hex segments separated by /)");
    }
    if (!ROLE_UID.test(roleUid)) {
      throw invalidArgument("roleUid", "must be a role uid (40 hex characters)");
    }
    if (identityUid !== current?.identityUid) {
      access.require("identities.get", identityUid);
      if (!this.state.identities.has(identityUid)) throw notFound(identityUid);
    }
    const role =
      roleUid !== current?.roleUid
        ? this.readableRole(access, roleUid)
        : this.state.roles.get(roleUid);
    if (!role) throw notFound(roleUid);
    if (role.parentUid !== "" && !isSameOrBelow(groupUid, role.parentUid)) {
      throw invalidArgument(
        "roleUid",
        "the role belongs to a group that is not this group or an ancestor",
      );
    }
    for (const capability of role.capabilities) access.require(capability, groupUid);
  }

  private findDuplicateBinding(
    groupUid: string,
    identityUid: string,
    roleUid: string,
    except?: string,
  ): RoleBindingRecord | undefined {
    return this.state
      .bindingsOfIdentity(identityUid)
      .find(
        (binding) =>
          binding.uid !== except &&
          binding.roleUid === roleUid &&
          parentPath(binding.uid) === groupUid,
      );
  }

  private async roleBindings(request: ApiRequest, uid: string | undefined): Promise<ApiResponse> {
    const access = await this.caller(request, true);
    const bindings = this.state.roleBindings;
    switch (request.method) {
      case "GET": {
        if (uid === undefined) {
          const params = parseListParams(request.query, ["identityUid", "roleUid"]);
          const filter = access.listFilter(
            "roleBindings.list",
            params.childrenOf ?? params.descendantsOf,
          );
          const { identityUid, roleUid } = params.filters;
          const result = runList({
            collectionKey: "roleBindings",
            collection: bindings,
            params,
            sortValue: sortValueOf<RoleBindingRecord>(
              (binding) => this.state.identities.get(binding.identityUid)?.name ?? "",
            ),
            predicate:
              filter || identityUid || roleUid
                ? (binding) =>
                    (!filter || filter(binding.uid)) &&
                    (!identityUid || binding.identityUid === identityUid) &&
                    (!roleUid || binding.roleUid === roleUid)
                : undefined,
            nowMs: this.ctx.clock.nowMs(),
            pageTokenKey: this.ctx.tokens.pageTokenKey,
          });
          return listEnvelope("roleBindings", result, (binding) =>
            bindingOut(this.state, binding, access),
          );
        }
        requirePathUid(uid);
        access.require("roleBindings.get", uid);
        return ok(bindingOut(this.state, this.existing(bindings, uid), access));
      }
      case "POST": {
        if (uid === undefined) throw invalidArgument("parent", "the group uid belongs in the path");
        const groupUid = requirePathUid(uid, "parent");
        access.require("roleBindings.create", groupUid);
        const body = bodyObject(request);
        const identityUid = optionalString(body, "identityUid");
        if (!identityUid) throw invalidArgument("identityUid", "is required");
        const roleUid = optionalString(body, "roleUid");
        if (!roleUid) throw invalidArgument("roleUid", "is required");
        this.existing(this.state.groups, groupUid);
        this.checkBindingTarget(access, groupUid, identityUid, roleUid);
        if (this.findDuplicateBinding(groupUid, identityUid, roleUid)) {
          throw new ApiError(
            "ALREADY_EXISTS",
            `Already exists: a binding of ${identityUid} to ${roleUid} in ${groupUid}`,
          );
        }
        const now = this.now();
        const binding: RoleBindingRecord = {
          uid: newChildUid(
            groupUid,
            (candidate) => bindings.has(candidate) || this.state.groups.has(candidate),
          ),
          identityUid,
          roleUid,
          createTime: now,
          updateTime: now,
        };
        this.state.addBinding(binding);
        this.state.touch();
        return ok(bindingOut(this.state, binding, access));
      }
      case "PATCH": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("roleBindings.update", uid);
        const body = bodyObject(request);
        const { paths } = updatePaths(request, body, ["identityUid", "roleUid"]);
        const current = this.existing(bindings, uid);
        const next: RoleBindingRecord = { ...current };
        for (const path of paths) {
          const value = optionalString(body, path);
          if (!value) throw invalidArgument(path, "is required");
          if (path === "identityUid") next.identityUid = value;
          if (path === "roleUid") next.roleUid = value;
        }
        const groupUid = parentPath(uid);
        this.checkBindingTarget(access, groupUid, next.identityUid, next.roleUid, current);
        if (this.findDuplicateBinding(groupUid, next.identityUid, next.roleUid, uid)) {
          throw new ApiError(
            "ALREADY_EXISTS",
            `Already exists: a binding of ${next.identityUid} to ${next.roleUid} in ${groupUid}`,
          );
        }
        const saved = this.saveUpdate(current, next, ["identityUid", "roleUid"], (record) =>
          this.state.replaceBinding(record),
        );
        return ok(bindingOut(this.state, saved, access));
      }
      case "DELETE": {
        if (uid === undefined) throw unsupported(request);
        requirePathUid(uid);
        access.require("roleBindings.delete", uid);
        this.existing(bindings, uid);
        this.state.deleteBinding(uid);
        this.state.touch();
        return ok({});
      }
      default:
        throw unsupported(request);
    }
  }

  // ------------------------------------------------------------ registry and advisories

  private repoReadable(access: Access, repo: RepoRecord, verb: "list" | "get"): boolean {
    return repo.public || access.can(`repos.${verb}`, repo.uid);
  }

  private tagReadable(access: Access, tag: TagRecord, verb: "list" | "get"): boolean {
    const repo = this.state.repos.get(parentPath(tag.uid));
    return (repo?.public ?? false) || access.can(`tags.${verb}`, tag.uid);
  }

  private listRepos(request: ApiRequest, access: Access): ApiResponse {
    const params = parseListParams(request.query);
    const filter = access.listFilter("repos.list", params.childrenOf ?? params.descendantsOf);
    const result = runList<RepoRecord>({
      collectionKey: "repos",
      collection: this.state.repos,
      params,
      sortValue: sortValueOf<RepoRecord>((repo) => repo.name),
      predicate: filter && ((repo) => repo.public || filter(repo.uid)),
      nowMs: this.ctx.clock.nowMs(),
      pageTokenKey: this.ctx.tokens.pageTokenKey,
    });
    return listEnvelope("repos", result, repoOut);
  }

  /** Unreadable and missing look the same to an anonymous caller; others learn which it is. */
  private getReadable<T extends { uid: string }>(
    access: Access,
    collection: IndexedCollection<T>,
    uid: string,
    capability: string,
    readable: (record: T) => boolean,
  ): T {
    requirePathUid(uid);
    const record = collection.get(uid);
    if (record && readable(record)) return record;
    if (!access.authenticated)
      throw unauthenticated("a bearer token is required for this resource");
    access.require(capability, uid);
    if (!record) throw notFound(uid);
    return record;
  }

  private getRepo(access: Access, uid: string): ApiResponse {
    const repo = this.getReadable(access, this.state.repos, uid, "repos.get", (record) =>
      this.repoReadable(access, record, "get"),
    );
    return ok(repoOut(repo));
  }

  private listTags(request: ApiRequest, access: Access): ApiResponse {
    const params = parseListParams(request.query);
    const filter = access.listFilter("tags.list", params.childrenOf ?? params.descendantsOf);
    const result = runList<TagRecord>({
      collectionKey: "tags",
      collection: this.state.tags,
      params,
      sortValue: sortValueOf<TagRecord>((tag) => tag.name),
      predicate: filter && ((tag) => this.tagReadable(access, tag, "list")),
      nowMs: this.ctx.clock.nowMs(),
      pageTokenKey: this.ctx.tokens.pageTokenKey,
    });
    return listEnvelope("tags", result, tagOut);
  }

  private getTag(access: Access, uid: string): ApiResponse {
    const tag = this.getReadable(access, this.state.tags, uid, "tags.get", (record) =>
      this.tagReadable(access, record, "get"),
    );
    return ok(tagOut(tag));
  }

  /** Advisories are public knowledge: any authenticated caller may read them. */
  private listAdvisories(request: ApiRequest, access: Access): ApiResponse {
    if (!access.authenticated) throw unauthenticated("a bearer token is required");
    const params = parseListParams(request.query, ["packageName", "severity"]);
    const { packageName, severity } = params.filters;
    const result = runList<AdvisoryRecord>({
      collectionKey: "advisories",
      collection: this.state.advisories,
      params,
      sortValue: sortValueOf<AdvisoryRecord>((advisory) => advisory.advisoryId),
      predicate:
        packageName || severity
          ? (advisory) =>
              (!packageName || advisory.packageName === packageName) &&
              (!severity || advisory.severity === severity)
          : undefined,
      scopeParentOf: () => "",
      nowMs: this.ctx.clock.nowMs(),
      pageTokenKey: this.ctx.tokens.pageTokenKey,
    });
    return listEnvelope("advisories", result, advisoryOut);
  }

  private getAdvisory(access: Access, uid: string): ApiResponse {
    if (!access.authenticated) throw unauthenticated("a bearer token is required");
    if (!ROLE_UID.test(uid))
      throw invalidArgument("uid", "must be an advisory uid (40 hex characters)");
    return ok(advisoryOut(this.existing(this.state.advisories, uid)));
  }

  // ------------------------------------------------------------ v1

  private v1Groups(access: Access): ApiResponse {
    const items: JsonObject[] = [];
    const range = this.state.groups.all();
    for (let index = range.start; index < range.end; index++) {
      const group = this.state.groups.get(range.uids[index]);
      if (!group || !access.can("groups.list", group.uid)) continue;
      items.push({
        id: group.uid,
        name: group.name,
        description: group.description,
        resourceLimits: {
          clusters: group.resourceLimits.clusters ?? 0,
          idps: group.resourceLimits.idps ?? 0,
          repositories: group.resourceLimits.repositories ?? 0,
        },
        verified: group.verified,
      });
    }
    return ok({ items });
  }

  private v1Repos(access: Access): ApiResponse {
    const items: JsonObject[] = [];
    const range = this.state.repos.all();
    for (let index = range.start; index < range.end; index++) {
      const repo = this.state.repos.get(range.uids[index]);
      if (!repo || !this.repoReadable(access, repo, "list")) continue;
      items.push({
        id: repo.uid,
        name: repo.name,
        description: repo.description,
        catalogTier: repo.catalogTier,
        aliases: [...repo.aliases],
        createdAt: repo.createTime,
        updatedAt: repo.updateTime,
      });
    }
    return ok({ items });
  }

  // ------------------------------------------------------------ token exchange and test issuer

  private async exchange(request: ApiRequest): Promise<ApiResponse> {
    const header = request.authorization ?? "";
    const bearer = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
    if (!bearer)
      throw unauthenticated("an OIDC token is required as 'Authorization: Bearer <token>'");
    const audience = request.query.get("aud");
    if (!audience) throw invalidArgument("aud", "is required");
    if (audience.replace(/\/+$/, "") !== this.ctx.origin) {
      throw invalidArgument("aud", `must be the API audience ${this.ctx.origin}`);
    }
    const identityUid = request.query.get("identity");
    if (!identityUid) throw invalidArgument("identity", "is required");
    requirePathUid(identityUid, "identity");
    // Addendum 6.10: the identity first, so that nothing the presented token names is
    // fetched, and its signature is checked only against keys of the identity's issuer.
    const identity = this.state.identities.get(identityUid);
    if (!identity) throw notFound(identityUid);
    const mismatch = (check: string): ApiError =>
      new ApiError(
        "PERMISSION_DENIED",
        `Permission denied: the OIDC token does not match identity ${identityUid} (${check})`,
      );
    const { issuer, subject } = identity.claimMatch;
    if (this.ctx.tokens.claimedIssuer(bearer[1]) !== issuer) throw mismatch("issuer");
    const presented = await this.ctx.tokens.verifyOidcToken(
      bearer[1],
      issuer,
      this.ctx.clock.now(),
    );
    if (subject !== "*" && subject !== presented.subject) throw mismatch("subject");
    // No audience member on an identity here: `aud` must hold {base_url} (a trailing / ignored).
    if (!presented.audiences.some((aud) => aud.replace(/\/+$/, "") === this.ctx.origin)) {
      throw mismatch("audience");
    }
    this.markSeen(identity);
    const token = await this.ctx.tokens.mintApiToken(
      identityUid,
      EXCHANGED_TOKEN_TTL_SECONDS,
      this.ctx.clock.now(),
    );
    return ok({ token });
  }

  private async oidc(request: ApiRequest): Promise<ApiResponse | undefined> {
    const { tokens } = this.ctx;
    switch (`${request.method} ${request.path}`) {
      case "GET /oidc/.well-known/openid-configuration":
        return ok({
          issuer: tokens.issuer,
          jwks_uri: `${tokens.issuer}/jwks.json`,
          token_endpoint: `${tokens.issuer}/token`,
          response_types_supported: ["id_token"],
          subject_types_supported: ["public"],
          id_token_signing_alg_values_supported: ["ES256"],
        });
      case "GET /oidc/jwks.json":
        return ok(tokens.oidcJwks());
      case "POST /oidc/token": {
        const body = bodyObject(request);
        const subject = optionalString(body, "subject");
        if (!subject) throw invalidArgument("subject", "is required");
        const ttlSeconds = optionalNumber(body, "ttlSeconds");
        if (
          ttlSeconds !== undefined &&
          (ttlSeconds <= 0 || ttlSeconds > MAX_OIDC_TOKEN_TTL_SECONDS)
        ) {
          throw invalidArgument(
            "ttlSeconds",
            `must be above 0 and at most ${MAX_OIDC_TOKEN_TTL_SECONDS}`,
          );
        }
        const token = await tokens.mintOidcToken(
          subject,
          {
            audience: optionalString(body, "audience"),
            ttlSeconds,
            issuer: optionalString(body, "issuer"),
          },
          this.ctx.clock.now(),
        );
        return ok({ token });
      }
      default:
        return undefined;
    }
  }
}
