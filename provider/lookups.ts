/**
 * Lookups (data sources). Dynamic providers have no invoke, so these are plain async
 * functions that run in the program's process, with settings from `irm:` config, then
 * the `IRM_*` variables, then defaults. Each has an Output form (`getXOutput`) for
 * arguments that are Pulumi outputs.
 *
 * Requests: a lookup by uid is one GET; a single lookup by name is one List with the
 * server-side filter; a listing is one request per page, in the largest pages the API
 * serves. Arguments are checked before any request, so a typo fails with
 * `<lookup>: <argument>: <reason>` instead of a filter that silently matches nothing.
 */
import type * as pulumi from "@pulumi/pulumi";
import type {
  Advisory,
  ExternalGroupRoleMapping,
  Group,
  Identity,
  IdentityProvider,
  IrmClient,
  Repo,
  Role,
  Subscription,
  Tag,
} from "../sdk/index";
import { MAX_PAGE_SIZE } from "../sdk/index";
import { CONFIG_NAMESPACE } from "../sdk/settings";
import {
  CHILD_UID_PATTERN,
  CHILD_UID_SHAPE,
  GROUP_UID_PATTERN,
  GROUP_UID_SHAPE,
  parentOf,
  ROLE_UID_PATTERN,
  ROLE_UID_SHAPE,
} from "../sdk/uids";
import { MAX_LENGTH, quoted } from "./checks";
import {
  checkedProviderSettings,
  clientFor,
  isCheckedSettings,
  type ProviderSettings,
  whatToCheck,
} from "./config";
import { UserError } from "./user-error";

/** Options of every lookup. */
export interface LookupOptions {
  /** Settings that take precedence over `irm:` config and the environment. */
  readonly settings?: Partial<ProviderSettings>;
  /** Cancels the lookup. */
  readonly signal?: AbortSignal;
}

/** Makes every member of a lookup's arguments a `pulumi.Input`, for its Output form. */
export type OutputArgs<T> = { readonly [K in keyof T]: pulumi.Input<T[K]> };

/** A group as the API answers it (`uid`, `name`, `description`, `verified`, `resourceLimits`, times). */
export type GetGroupResult = Group;
/** An identity as the API answers it: the member of its kind, and no other. */
export type GetIdentityResult = Identity;
/**
 * A role: built-in (a flat uid; `isBuiltInRoleUid`) or a group's custom role (uid
 * `<group uid>/<16 hex>`; `parentOf`), with its capabilities (enum value names).
 */
export type GetRoleResult = Role;
/** An identity provider as the API answers it, never with its client secret. */
export type GetIdentityProviderResult = IdentityProvider;
/** A registry repository. */
export type GetRepoResult = Repo;
/** A tag of a repository (`name`, `digest`, `deprecated`, times). */
export type GetTagResult = Tag;
/** A vulnerability advisory (`advisoryId`, `artifactName`, `componentName`, `aliases`, `events`, ...). */
export type GetAdvisoryResult = Advisory;

/** A group by its uid, or by its exact name under its parent. */
export interface GetGroupArgs {
  /** The group's uid. Give either this, or `name` and `parentUid`. */
  readonly uid?: string;
  /** Exact name of the group (with `parentUid`). */
  readonly name?: string;
  /** Uid of its parent: the root organisation or another group (with `name`). */
  readonly parentUid?: string;
}
export type GetGroupOutputArgs = OutputArgs<GetGroupArgs>;

/**
 * An identity by its uid, or by the exact issuer and subject a token must carry (a
 * `claimMatch` or `staticKeys` identity with exactly these values; pattern identities
 * never match).
 */
export interface GetIdentityArgs {
  /** The identity's uid. Give either this, or `issuer` and `subject`. */
  readonly uid?: string;
  /** The exact issuer URL (with `subject`). */
  readonly issuer?: string;
  /** The exact subject (with `issuer`); `*` matches only an identity whose subject is `*`. */
  readonly subject?: string;
  /** Only the identities of this group (its direct children); default: every visible one. */
  readonly parentUid?: string;
}
export type GetIdentityOutputArgs = OutputArgs<GetIdentityArgs>;

export interface GetRoleArgs {
  /** Exact name of the role, e.g. `viewer`. */
  readonly name: string;
  /**
   * Only the custom roles of this group. Without it, every role visible to the caller
   * counts, built-in and custom alike, so a custom role of any group that shares the
   * name makes the lookup ambiguous.
   */
  readonly parentUid?: string;
}
export type GetRoleOutputArgs = OutputArgs<GetRoleArgs>;

export interface GetRolesArgs {
  /** Only roles with exactly this name. */
  readonly name?: string;
  /** Only the custom roles of this group; default: every visible role, built-in ones included. */
  readonly parentUid?: string;
}
export type GetRolesOutputArgs = OutputArgs<GetRolesArgs>;

/** An identity provider by its uid, or by its exact name in its group. */
export interface GetIdentityProviderArgs {
  /** The provider's uid. Give either this, or `name` and `parentUid`. */
  readonly uid?: string;
  /** Exact name of the provider (with `parentUid`). */
  readonly name?: string;
  /** Uid of the group the provider belongs to (with `name`). */
  readonly parentUid?: string;
}
export type GetIdentityProviderOutputArgs = OutputArgs<GetIdentityProviderArgs>;

/** The external group role mappings of one identity provider. */
export interface GetExternalGroupRoleMappingsArgs {
  /** Uid of the identity provider (e.g. from `getIdentityProvider`). */
  readonly identityProviderUid: string;
  /** Only the mappings of this outside group id. */
  readonly externalGroupId?: string;
}
export type GetExternalGroupRoleMappingsOutputArgs = OutputArgs<GetExternalGroupRoleMappingsArgs>;

export interface GetRepoArgs {
  /** Exact name of the repository. */
  readonly name: string;
  /** Only repositories below this group (at any depth). */
  readonly groupUid?: string;
}
export type GetRepoOutputArgs = OutputArgs<GetRepoArgs>;

export interface GetReposArgs {
  /** Only repositories below this group (at any depth). */
  readonly groupUid?: string;
  /** Only repositories with exactly this name. */
  readonly name?: string;
}
export type GetReposOutputArgs = OutputArgs<GetReposArgs>;

export interface GetTagArgs {
  /** Uid of the repository (e.g. from `getRepo`). */
  readonly repoUid: string;
  /** Exact name of the tag, e.g. `latest`. */
  readonly name: string;
}
export type GetTagOutputArgs = OutputArgs<GetTagArgs>;

export interface GetTagsArgs {
  /** Uid of the repository (e.g. from `getRepo`). */
  readonly repoUid: string;
  /** Only the tag with exactly this name. */
  readonly name?: string;
}
export type GetTagsOutputArgs = OutputArgs<GetTagsArgs>;

export interface GetSubscriptionsArgs {
  /** Only the subscriptions of this group and the groups below it. */
  readonly groupUid?: string;
}
export type GetSubscriptionsOutputArgs = OutputArgs<GetSubscriptionsArgs>;

/**
 * Filters of {@link getAdvisories}, the API's own (see the SDK's `AdvisoryListParams`);
 * every one given must hold, and a list matches any of its values.
 */
export interface GetAdvisoriesArgs {
  /** Exact advisory ids, e.g. `CGA-xvgw-cvr7-9g2q`. */
  readonly advisoryIds?: string[];
  /** Exact artifact (package) names, e.g. `openssl`. */
  readonly artifactNames?: string[];
  readonly artifactTypes?: string[];
  /** E.g. `x86_64`, `aarch64`. */
  readonly artifactArchitectures?: string[];
  /** Exact component names. */
  readonly componentNames?: string[];
  readonly componentTypes?: string[];
  readonly componentLocations?: string[];
  /** Vulnerability ids, e.g. `CVE-2026-0001`. */
  readonly aliases?: string[];
  /** Every advisory of the packages of this origin package (the service then ignores `artifactNames`). */
  readonly origin?: string;
  /** Free-text search. */
  readonly query?: string;
}
export type GetAdvisoriesOutputArgs = OutputArgs<GetAdvisoriesArgs>;

/** How one lookup argument is checked before any request is made. */
export interface ArgumentRule {
  required?: boolean;
  /**
   * `name`: a name of at most `maxNameLength` characters; `text`: any string of at most
   * `MAX_LENGTH.value` (an issuer, a subject, a severity); the uids must have their shape.
   */
  kind: "name" | "text" | "textList" | "groupUid" | "childUid" | "roleUid";
}

/** At most this many values in a list argument. */
const MAX_LIST_ARGUMENT = 100;

/** Longest repository name accepted (the registry convention); other names use MAX_LENGTH.name. */
const MAX_REPO_NAME_LENGTH = 256;

const UID_RULES = {
  groupUid: { pattern: GROUP_UID_PATTERN, shape: GROUP_UID_SHAPE },
  childUid: { pattern: CHILD_UID_PATTERN, shape: CHILD_UID_SHAPE },
  roleUid: { pattern: ROLE_UID_PATTERN, shape: ROLE_UID_SHAPE },
} as const;

/**
 * Validates a lookup's arguments, so a wrong type, an empty required value, an oversized
 * string or a malformed uid fails with `<lookup>: <argument>: <reason>` before any
 * request, instead of turning into a filter that silently matches nothing.
 */
function checkArguments(
  lookup: string,
  args: unknown,
  rules: Record<string, ArgumentRule>,
  maxNameLength: number = MAX_LENGTH.name,
): void {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new TypeError(`${lookup}: arguments must be an object`);
  }
  for (const [field, rule] of Object.entries(rules)) {
    const value = (args as Record<string, unknown>)[field];
    const fail = (reason: string) => new TypeError(`${lookup}: ${field}: ${reason}`);
    if (value === undefined || value === null || value === "") {
      if (rule.required) throw fail("is required");
      continue;
    }
    if (rule.kind === "textList") {
      if (!Array.isArray(value)) throw fail(`must be an array of strings, got ${typeof value}`);
      if (value.length > MAX_LIST_ARGUMENT) {
        throw fail(`must have at most ${MAX_LIST_ARGUMENT} values, got ${value.length}`);
      }
      value.forEach((item, index) => {
        if (typeof item !== "string" || item === "") {
          throw fail(`[${index}] must be a non-empty string`);
        }
        if (item.length > MAX_LENGTH.value) {
          throw fail(
            `[${index}] must be at most ${MAX_LENGTH.value} characters, got ${item.length}`,
          );
        }
      });
      continue;
    }
    if (typeof value !== "string") {
      throw fail(`must be a string, got ${Array.isArray(value) ? "array" : typeof value}`);
    }
    if (rule.kind === "name" || rule.kind === "text") {
      const max = rule.kind === "name" ? maxNameLength : MAX_LENGTH.value;
      if (value.length > max) throw fail(`must be at most ${max} characters, got ${value.length}`);
      continue;
    }
    const { pattern, shape } = UID_RULES[rule.kind];
    if (!pattern.test(value)) throw fail(`must be ${shape}, got ${quoted(value)}`);
  }
}

/** Set: neither absent, `null` nor `""`. */
function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/**
 * Exactly one way of finding the object: by `uid` alone, or by every member of `by`
 * (and not by both). Answers which.
 */
function chooseWay(lookup: string, args: object, by: readonly string[]): "uid" | "fields" {
  const values = args as Record<string, unknown>;
  const named = by.filter((field) => given(values[field]));
  const either = `give either uid, or ${by.join(" and ")}`;
  if (given(values.uid)) {
    if (named.length > 0) throw new TypeError(`${lookup}: uid: ${either}, not both`);
    return "uid";
  }
  const missing = by.filter((field) => !given(values[field]));
  if (missing.length > 0) throw new TypeError(`${lookup}: ${missing[0]}: is required (${either})`);
  return "fields";
}

/**
 * `@pulumi/pulumi`, loaded when first needed: by a program's `irm:` config and the Output
 * forms. The native plugin serves the lookups as functions with settings already checked
 * at its configure, and so never loads it (about 0.7 s of CPU).
 */
function pulumiSdk(): typeof import("@pulumi/pulumi") {
  return require("@pulumi/pulumi");
}

function lookupSettings(overrides: Partial<ProviderSettings> | undefined): ProviderSettings {
  if (isCheckedSettings(overrides)) return overrides as ProviderSettings;
  const config = new (pulumiSdk().Config)(CONFIG_NAMESPACE);
  const prefix = `${CONFIG_NAMESPACE}:`;
  return checkedProviderSettings(
    (key) => config.get(key.slice(prefix.length)),
    process.env,
    Date.now(),
    overrides,
  );
}

function lookupClient(opts: LookupOptions | undefined): IrmClient {
  return clientFor(lookupSettings(opts?.settings));
}

/**
 * A lookup's failure as the program prints it: one message naming what to fix, without
 * a stack (see {@link UserError}).
 */
export class LookupError extends UserError {
  constructor(message: string) {
    super(message, "LookupError");
  }
}

/** What the user can do about an error of the API or the connection, by its kind. */
function advice(error: unknown): string {
  return whatToCheck(error) ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Runs one lookup; any failure becomes a {@link LookupError} whose message starts with
 * the lookup's name (an argument's name and rule, or what the API answered and what to
 * check), so the program stops at once with one line.
 */
async function friendly<T>(lookup: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UserError) throw error;
    const text = advice(error);
    throw new LookupError(text.startsWith(`${lookup}:`) ? text : `${lookup}: ${text}`);
  }
}

/**
 * Runs one lookup: its arguments checked against `rules` before any request (see
 * {@link checkArguments}), then `run` with the client of the lookup's settings, any
 * failure as {@link friendly} makes it.
 */
function checkedLookup<T>(
  lookup: string,
  args: unknown,
  rules: Record<string, ArgumentRule>,
  opts: LookupOptions | undefined,
  run: (client: IrmClient) => Promise<T>,
  maxNameLength?: number,
): Promise<T> {
  return friendly(lookup, async () => {
    checkArguments(lookup, args, rules, maxNameLength);
    return run(lookupClient(opts));
  });
}

/** Exactly one match, else an error naming what was looked for and what was found. */
function exactlyOne<T extends { uid: string }>(
  what: string,
  items: T[],
  totalCount: number,
  label: (item: T) => string = (item) => item.uid,
): T {
  if (items.length === 1 && totalCount <= 1) return items[0];
  if (items.length === 0) throw new Error(`${what}: found none`);
  const uids = items.map(label).join(", ");
  throw new Error(
    `${what}: expected exactly one, found ${Math.max(totalCount, items.length)} (${uids})`,
  );
}

/**
 * Up to three of `names` nearest to `name` by edit distance (a letter added, removed,
 * changed, or two swapped), nearest first: those within a third of the name's length
 * (at least 2), so a misspelling finds its word and an unrelated name finds nothing.
 */
export function nearestNames(name: string, names: Iterable<string>, limit = 3): string[] {
  const within = Math.max(2, Math.floor(name.length / 3));
  const scored = [...new Set(names)]
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .filter(({ candidate, distance }) => candidate !== name && distance <= within);
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map(({ candidate }) => candidate);
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * {@link exactlyOne} of a lookup by exact name; when there is none, the message names
 * the nearest names `others` lists (one more request, made only then: the first page
 * of the same scope). Listing them is a courtesy: if it fails, "found none" stands.
 */
async function exactlyOneNamed<T extends { uid: string }>(
  what: string,
  name: string,
  page: { items: T[]; totalCount: number },
  others: () => PromiseLike<{ items: Array<{ name: string }> }>,
  label?: (item: T) => string,
): Promise<T> {
  if (page.items.length > 0) return exactlyOne(what, page.items, page.totalCount, label);
  let near: string[] = [];
  try {
    near = nearestNames(
      name,
      (await others()).items.map((item) => item.name),
    );
  } catch {
    // Nothing to add: the lookup's own answer, none found, is the message.
  }
  const hint = near.length > 0 ? `; nearest: ${near.map((n) => JSON.stringify(n)).join(", ")}` : "";
  throw new Error(`${what}: found none${hint}`);
}

/** The verbs a lookup by uid needs from a collection. */
interface Gettable<T> {
  get(uid: string, options?: { signal?: AbortSignal }): Promise<T>;
  isGone(error: unknown, uid: string): boolean;
}

/** One GET; the API's NOT_FOUND for this uid is "found none", as for the other lookups. */
async function byUid<T>(
  what: string,
  collection: Gettable<T>,
  uid: string,
  opts: LookupOptions | undefined,
): Promise<T> {
  try {
    return await collection.get(uid, { signal: opts?.signal });
  } catch (error) {
    if (!collection.isGone(error, uid)) throw error;
    throw new Error(`${what} ${uid}: found none (or it is not visible to this token)`);
  }
}

/** The verbs a lookup by name needs from a collection: one page of a filtered List. */
interface Listable<T> {
  list(
    params: { name?: string; childrenOf?: string; pageSize?: number },
    options?: { signal?: AbortSignal },
  ): PromiseLike<{ items: T[]; totalCount: number }>;
}

/** The arguments of a lookup of an object by its uid, or by its exact name in a group. */
interface UidOrNameArgs {
  readonly uid?: string;
  readonly name?: string;
  readonly parentUid?: string;
}

/**
 * The object with `args.uid` (one GET), or the one with exactly `args.name` directly in
 * group `args.parentUid` (one List); fails unless exactly one exists. `what` names the
 * kind in messages (`group`), `where` how it sits in its group (`under <uid>`).
 */
async function byUidOrName<T extends { uid: string; name: string }>(
  lookup: string,
  what: string,
  collection: Gettable<T> & Listable<T>,
  args: UidOrNameArgs,
  where: (parentUid: string | undefined) => string,
  opts: LookupOptions | undefined,
): Promise<T> {
  if (chooseWay(lookup, args, ["name", "parentUid"]) === "uid") {
    return byUid(`${lookup}: ${what}`, collection, args.uid as string, opts);
  }
  const page = await collection.list(
    { name: args.name, childrenOf: args.parentUid, pageSize: MAX_PAGE_SIZE },
    { signal: opts?.signal },
  );
  return exactlyOneNamed(
    `${lookup}: ${what} named ${JSON.stringify(args.name)} ${where(args.parentUid)}`,
    args.name as string,
    page,
    () =>
      collection.list(
        { childrenOf: args.parentUid, pageSize: MAX_PAGE_SIZE },
        { signal: opts?.signal },
      ),
  );
}

/** The Output form of a lookup: resolves the arguments, then looks up. */
function outputForm<A, R>(
  lookup: (args: A, opts?: LookupOptions) => Promise<R>,
): (args: OutputArgs<A>, opts?: LookupOptions) => pulumi.Output<R> {
  return (args, opts) =>
    pulumiSdk()
      .output(args)
      .apply((resolved) => lookup(resolved as unknown as A, opts));
}

/** The Output form of a listing, whose arguments (filters) may all be left out. */
function listingOutputForm<A extends object, R>(
  lookup: (args: A, opts?: LookupOptions) => Promise<R>,
): (args?: OutputArgs<A>, opts?: LookupOptions) => pulumi.Output<R> {
  const form = outputForm(lookup);
  return (args = {} as OutputArgs<A>, opts) => form(args, opts);
}

/** The list filters of getAdvisories, each a list of exact values. */
const ADVISORY_LIST_ARGUMENTS = [
  "advisoryIds",
  "artifactNames",
  "artifactTypes",
  "artifactArchitectures",
  "componentNames",
  "componentTypes",
  "componentLocations",
  "aliases",
] as const;

/**
 * Every lookup's arguments and how each is checked before any request, by lookup: the
 * lookups check against it, and the native plugin's schema describes its functions'
 * inputs from it (`native/schema.ts`).
 */
export const LOOKUP_ARGUMENTS = {
  getGroup: {
    uid: { kind: "groupUid" },
    name: { kind: "name" },
    parentUid: { kind: "groupUid" },
  },
  getIdentity: {
    uid: { kind: "childUid" },
    issuer: { kind: "text" },
    subject: { kind: "text" },
    parentUid: { kind: "groupUid" },
  },
  getRole: {
    name: { required: true, kind: "name" },
    parentUid: { kind: "groupUid" },
  },
  getRoles: {
    name: { kind: "name" },
    parentUid: { kind: "groupUid" },
  },
  getIdentityProvider: {
    uid: { kind: "childUid" },
    name: { kind: "name" },
    parentUid: { kind: "groupUid" },
  },
  getExternalGroupRoleMappings: {
    identityProviderUid: { required: true, kind: "childUid" },
    externalGroupId: { kind: "text" },
  },
  getRepo: {
    name: { required: true, kind: "name" },
    groupUid: { kind: "groupUid" },
  },
  getRepos: {
    name: { kind: "name" },
    groupUid: { kind: "groupUid" },
  },
  getTag: {
    repoUid: { required: true, kind: "childUid" },
    name: { required: true, kind: "name" },
  },
  getTags: {
    repoUid: { required: true, kind: "childUid" },
    name: { kind: "name" },
  },
  getSubscriptions: { groupUid: { kind: "groupUid" } },
  getAdvisories: {
    ...Object.fromEntries(ADVISORY_LIST_ARGUMENTS.map((field) => [field, { kind: "textList" }])),
    origin: { kind: "text" },
    query: { kind: "text" },
  },
} satisfies Record<string, Record<string, ArgumentRule>>;

// ------------------------------------------------------------------------ groups

/**
 * The group with this uid (one GET), or with this exact name directly under
 * `parentUid` (one List); fails unless exactly one exists.
 */
export async function getGroup(args: GetGroupArgs, opts?: LookupOptions): Promise<GetGroupResult> {
  const rules = LOOKUP_ARGUMENTS.getGroup;
  return checkedLookup("getGroup", args, rules, opts, (client) =>
    byUidOrName("getGroup", "group", client.iam.groups, args, (uid) => `under ${uid}`, opts),
  );
}

/** {@link getGroup} for arguments that are Pulumi outputs. */
export const getGroupOutput = outputForm(getGroup);

// -------------------------------------------------------------------- identities

/** The exact issuer and subject of an identity, for the kinds that have them. */
function exactIssuerAndSubject(identity: Identity): { issuer?: string; subject?: string } {
  if (identity.claimMatch) return identity.claimMatch;
  if (identity.staticKeys) return identity.staticKeys;
  return {};
}

/**
 * The identity with this uid (one GET), or the one whose exact issuer and subject
 * (`claimMatch` or `staticKeys`) are these, optionally among the identities of group
 * `parentUid`. The API has no filter on issuer or subject, so this walks the
 * identities, one request per page of 200. Fails unless exactly one matches.
 */
export async function getIdentity(
  args: GetIdentityArgs,
  opts?: LookupOptions,
): Promise<GetIdentityResult> {
  const rules = LOOKUP_ARGUMENTS.getIdentity;
  return checkedLookup("getIdentity", args, rules, opts, async (client) => {
    const identities = client.iam.identities;
    if (chooseWay("getIdentity", args, ["issuer", "subject"]) === "uid") {
      return byUid("getIdentity: identity", identities, args.uid as string, opts);
    }
    const all = await identities
      .list({ childrenOf: args.parentUid || undefined }, { signal: opts?.signal })
      .all();
    const matches = all.filter((identity) => {
      const exact = exactIssuerAndSubject(identity);
      return exact.issuer === args.issuer && exact.subject === args.subject;
    });
    const where = args.parentUid ? ` in group ${args.parentUid}` : "";
    return exactlyOne(
      `getIdentity: identity with issuer ${JSON.stringify(args.issuer)} and subject ${JSON.stringify(args.subject)}${where}`,
      matches,
      matches.length,
      (identity) => `${identity.uid} (${JSON.stringify(identity.name)})`,
    );
  });
}

/** {@link getIdentity} for arguments that are Pulumi outputs. */
export const getIdentityOutput = outputForm(getIdentity);

// ------------------------------------------------------------------------- roles

/**
 * The role with this exact name (e.g. `viewer`), optionally only among the custom roles
 * of group `parentUid`; fails unless exactly one exists, listing each match with its
 * group (or "built-in"). One request.
 */
export async function getRole(args: GetRoleArgs, opts?: LookupOptions): Promise<GetRoleResult> {
  const rules = LOOKUP_ARGUMENTS.getRole;
  return checkedLookup("getRole", args, rules, opts, async (client) => {
    const page = await client.iam.roles.list(
      { name: args.name, childrenOf: args.parentUid || undefined, pageSize: MAX_PAGE_SIZE },
      { signal: opts?.signal },
    );
    const where = args.parentUid ? ` in group ${args.parentUid}` : "";
    const owner = (role: Role) => {
      const group = parentOf(role.uid);
      return group === undefined ? "built-in" : `of group ${group}`;
    };
    try {
      return await exactlyOneNamed(
        `getRole: role named ${JSON.stringify(args.name)}${where}`,
        args.name,
        page,
        () =>
          client.iam.roles.list(
            { childrenOf: args.parentUid || undefined, pageSize: MAX_PAGE_SIZE },
            { signal: opts?.signal },
          ),
        (role) => `${role.uid} ${owner(role)}`,
      );
    } catch (error) {
      if (args.parentUid || page.items.length < 2) throw error;
      throw new Error(
        `${(error as Error).message}; pass parentUid to pick the custom role of one group`,
      );
    }
  });
}

/** {@link getRole} for arguments that are Pulumi outputs. */
export const getRoleOutput = outputForm(getRole);

/**
 * Every role visible to the caller, or only the custom roles of group `parentUid`,
 * optionally only those with this exact name. One request per page of 200.
 */
export async function getRoles(args: GetRolesArgs = {}, opts?: LookupOptions): Promise<Role[]> {
  const rules = LOOKUP_ARGUMENTS.getRoles;
  return checkedLookup("getRoles", args, rules, opts, (client) =>
    client.iam.roles
      .list(
        { name: args.name || undefined, childrenOf: args.parentUid || undefined },
        { signal: opts?.signal },
      )
      .all(),
  );
}

/** {@link getRoles} for arguments that are Pulumi outputs. */
export const getRolesOutput = listingOutputForm(getRoles);

// ------------------------------------------------------------ identity providers

/**
 * The identity provider with this uid (one GET), or with this exact name in group
 * `parentUid` (one List); fails unless exactly one exists. Its client secret is never
 * part of the answer.
 */
export async function getIdentityProvider(
  args: GetIdentityProviderArgs,
  opts?: LookupOptions,
): Promise<GetIdentityProviderResult> {
  const rules = LOOKUP_ARGUMENTS.getIdentityProvider;
  return checkedLookup("getIdentityProvider", args, rules, opts, (client) =>
    byUidOrName(
      "getIdentityProvider",
      "identity provider",
      client.iam.identityProviders,
      args,
      (uid) => `in group ${uid}`,
      opts,
    ),
  );
}

/** {@link getIdentityProvider} for arguments that are Pulumi outputs. */
export const getIdentityProviderOutput = outputForm(getIdentityProvider);

/**
 * Every external group role mapping of an identity provider, optionally only those of
 * one outside group. One request per page of 200.
 */
export async function getExternalGroupRoleMappings(
  args: GetExternalGroupRoleMappingsArgs,
  opts?: LookupOptions,
): Promise<ExternalGroupRoleMapping[]> {
  const rules = LOOKUP_ARGUMENTS.getExternalGroupRoleMappings;
  const lookup = async (client: IrmClient) => {
    const all = await client.iam.externalGroupRoleMappings
      .list({ identityProviderUid: args.identityProviderUid }, { signal: opts?.signal })
      .all();
    return args.externalGroupId
      ? all.filter((mapping) => mapping.externalGroupId === args.externalGroupId)
      : all;
  };
  return checkedLookup("getExternalGroupRoleMappings", args, rules, opts, lookup);
}

/** {@link getExternalGroupRoleMappings} for arguments that are Pulumi outputs. */
export const getExternalGroupRoleMappingsOutput = outputForm(getExternalGroupRoleMappings);

// ------------------------------------------------------------------ repositories

/** The repository with this exact name, optionally below a group; fails unless exactly one. One request. */
export async function getRepo(args: GetRepoArgs, opts?: LookupOptions): Promise<GetRepoResult> {
  const rules = LOOKUP_ARGUMENTS.getRepo;
  const lookup = async (client: IrmClient) => {
    const page = await client.registry.repos.list(
      { name: args.name, descendantsOf: args.groupUid || undefined, pageSize: MAX_PAGE_SIZE },
      { signal: opts?.signal },
    );
    const where = args.groupUid ? ` under ${args.groupUid}` : "";
    return exactlyOneNamed(
      `getRepo: repository named ${JSON.stringify(args.name)}${where}`,
      args.name,
      page,
      () =>
        client.registry.repos.list(
          { descendantsOf: args.groupUid || undefined, pageSize: MAX_PAGE_SIZE },
          { signal: opts?.signal },
        ),
    );
  };
  return checkedLookup("getRepo", args, rules, opts, lookup, MAX_REPO_NAME_LENGTH);
}

/** {@link getRepo} for arguments that are Pulumi outputs. */
export const getRepoOutput = outputForm(getRepo);

/**
 * Every repository visible to the caller, optionally below a group and/or by exact
 * name. One request per page of 200.
 */
export async function getRepos(args: GetReposArgs = {}, opts?: LookupOptions): Promise<Repo[]> {
  const rules = LOOKUP_ARGUMENTS.getRepos;
  const lookup = (client: IrmClient) =>
    client.registry.repos
      .list(
        { descendantsOf: args.groupUid || undefined, name: args.name || undefined },
        { signal: opts?.signal },
      )
      .all();
  return checkedLookup("getRepos", args, rules, opts, lookup, MAX_REPO_NAME_LENGTH);
}

/** {@link getRepos} for arguments that are Pulumi outputs. */
export const getReposOutput = listingOutputForm(getRepos);

// -------------------------------------------------------------------------- tags

/** The tag of repository `repoUid` with this exact name (e.g. `latest`); fails unless exactly one. One request. */
export async function getTag(args: GetTagArgs, opts?: LookupOptions): Promise<GetTagResult> {
  const rules = LOOKUP_ARGUMENTS.getTag;
  const lookup = async (client: IrmClient) => {
    const page = await client.registry.tags.list(
      { name: args.name, childrenOf: args.repoUid, pageSize: MAX_PAGE_SIZE },
      { signal: opts?.signal },
    );
    return exactlyOneNamed(
      `getTag: tag named ${JSON.stringify(args.name)} of repository ${args.repoUid}`,
      args.name,
      page,
      () =>
        client.registry.tags.list(
          { childrenOf: args.repoUid, pageSize: MAX_PAGE_SIZE },
          { signal: opts?.signal },
        ),
    );
  };
  return checkedLookup("getTag", args, rules, opts, lookup, MAX_REPO_NAME_LENGTH);
}

/** {@link getTag} for arguments that are Pulumi outputs. */
export const getTagOutput = outputForm(getTag);

/** Every tag of repository `repoUid`, optionally only the one with this exact name. One request per page of 200. */
export async function getTags(args: GetTagsArgs, opts?: LookupOptions): Promise<Tag[]> {
  const rules = LOOKUP_ARGUMENTS.getTags;
  const lookup = (client: IrmClient) =>
    client.registry.tags
      .list({ childrenOf: args.repoUid, name: args.name || undefined }, { signal: opts?.signal })
      .all();
  return checkedLookup("getTags", args, rules, opts, lookup, MAX_REPO_NAME_LENGTH);
}

/** {@link getTags} for arguments that are Pulumi outputs. */
export const getTagsOutput = outputForm(getTags);

// ----------------------------------------------------------------- subscriptions

/**
 * Every event subscription visible to the caller, optionally of a group and those below
 * it: `{ uid, sink }` each. One request per page of 200.
 */
export async function getSubscriptions(
  args: GetSubscriptionsArgs = {},
  opts?: LookupOptions,
): Promise<Subscription[]> {
  const rules = LOOKUP_ARGUMENTS.getSubscriptions;
  const lookup = (client: IrmClient) =>
    client.events.subscriptions
      .list({ descendantsOf: args.groupUid || undefined }, { signal: opts?.signal })
      .all();
  return checkedLookup("getSubscriptions", args, rules, opts, lookup);
}

/** {@link getSubscriptions} for arguments that are Pulumi outputs. */
export const getSubscriptionsOutput = listingOutputForm(getSubscriptions);

// -------------------------------------------------------------------- advisories

/** Arguments of earlier versions, each with what to write instead. */
const FORMER_ADVISORY_ARGUMENTS: Readonly<Record<string, string>> = {
  advisoryId: "no longer an argument: use advisoryIds (a list of exact ids)",
  packageName: "no longer an argument: use artifactNames (a list of exact package names)",
  severity:
    "no longer an argument: the API does not filter advisories by severity (read each advisory's severities)",
};

/**
 * Every advisory that passes all the filters given, all applied by the server (the
 * API's filters, sent as its query keys). One request per page of 200.
 */
export async function getAdvisories(
  args: GetAdvisoriesArgs = {},
  opts?: LookupOptions,
): Promise<Advisory[]> {
  return friendly("getAdvisories", async () => {
    for (const [field, remedy] of Object.entries(FORMER_ADVISORY_ARGUMENTS)) {
      if (given((args as Record<string, unknown> | null)?.[field])) {
        throw new TypeError(`getAdvisories: ${field}: ${remedy}`);
      }
    }
    checkArguments("getAdvisories", args, LOOKUP_ARGUMENTS.getAdvisories);
    const lists = Object.fromEntries(
      ADVISORY_LIST_ARGUMENTS.filter((field) => (args[field]?.length ?? 0) > 0).map((field) => [
        field,
        args[field],
      ]),
    );
    return lookupClient(opts)
      .vulnerabilities.advisories.list(
        { ...lists, origin: args.origin || undefined, query: args.query || undefined },
        { signal: opts?.signal },
      )
      .all();
  });
}

/** {@link getAdvisories} for arguments that are Pulumi outputs. */
export const getAdvisoriesOutput = listingOutputForm(getAdvisories);
