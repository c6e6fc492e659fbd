/**
 * Lookups (data sources). Dynamic providers have no invoke, so these are plain async
 * functions that run in the program's process, with settings from `irm:` config, then
 * the `IRM_*` variables, then defaults. Each uses the server-side `name` filter: one
 * request for a single lookup, the fewest pages (200 each) for a listing.
 */
import * as pulumi from "@pulumi/pulumi";
import { type Group, type IrmClient, MAX_PAGE_SIZE, type Repo, type Role } from "../sdk/index";
import { CONFIG_NAMESPACE } from "../sdk/settings";
import { clientFor, type ProviderSettings, resolveProviderSettings } from "./config";
import { GROUP_UID_PATTERN, MAX_LENGTH, quoted } from "./validation";

/** Options of every lookup. */
export interface LookupOptions {
  /** Settings that take precedence over `irm:` config and the environment. */
  readonly settings?: Partial<ProviderSettings>;
  /** Cancels the lookup. */
  readonly signal?: AbortSignal;
}

export type GetRoleResult = Role;
export type GetRepoResult = Repo;
export type GetGroupResult = Group;

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
export interface GetRoleOutputArgs {
  readonly name: pulumi.Input<string>;
  readonly parentUid?: pulumi.Input<string>;
}
export interface GetRolesArgs {
  /** Only roles with exactly this name. */
  readonly name?: string;
}
export interface GetRepoArgs {
  /** Exact name of the repository. */
  readonly name: string;
  /** Only repositories below this group (at any depth). */
  readonly groupUid?: string;
}
export interface GetRepoOutputArgs {
  readonly name: pulumi.Input<string>;
  readonly groupUid?: pulumi.Input<string>;
}
export interface GetReposArgs {
  /** Only repositories below this group (at any depth). */
  readonly groupUid?: string;
  /** Only repositories with exactly this name. */
  readonly name?: string;
}
export interface GetGroupArgs {
  /** Exact name of the group. */
  readonly name: string;
  /** Uid of its parent: the root organisation or another group. */
  readonly parentUid: string;
}

/** How one lookup argument is checked before any request is made. */
interface ArgumentRule {
  required?: boolean;
  /** `groupUid` arguments must have the shape of a group uid. */
  kind: "name" | "groupUid";
}

/** Longest repository name accepted (the registry convention); other names use MAX_LENGTH.name. */
const MAX_REPO_NAME_LENGTH = 256;

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
    if (typeof value !== "string") {
      throw fail(`must be a string, got ${Array.isArray(value) ? "array" : typeof value}`);
    }
    if (rule.kind === "groupUid" && !GROUP_UID_PATTERN.test(value)) {
      throw fail(
        `must be a group uid (40 lowercase hex, then zero or more '/' + 16 lowercase hex), got ${quoted(value)}`,
      );
    }
    if (rule.kind === "name" && value.length > maxNameLength) {
      throw fail(`must be at most ${maxNameLength} characters, got ${value.length}`);
    }
  }
}

function lookupSettings(overrides: Partial<ProviderSettings> | undefined): ProviderSettings {
  const config = new pulumi.Config(CONFIG_NAMESPACE);
  const prefix = `${CONFIG_NAMESPACE}:`;
  const resolved = resolveProviderSettings((key) => config.get(key.slice(prefix.length)));
  const defined = Object.fromEntries(
    Object.entries(overrides ?? {}).filter(([, value]) => value !== undefined),
  );
  return { ...resolved, ...defined };
}

function lookupClient(opts: LookupOptions | undefined): IrmClient {
  return clientFor(lookupSettings(opts?.settings));
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
 * The role with this exact name (e.g. `viewer`), optionally only among the custom roles
 * of group `parentUid`; fails unless exactly one exists, listing each match with its
 * group (or "built-in").
 */
export async function getRole(args: GetRoleArgs, opts?: LookupOptions): Promise<GetRoleResult> {
  checkArguments("getRole", args, {
    name: { required: true, kind: "name" },
    parentUid: { kind: "groupUid" },
  });
  const page = await lookupClient(opts).iam.roles.list(
    { name: args.name, childrenOf: args.parentUid, pageSize: MAX_PAGE_SIZE },
    { signal: opts?.signal },
  );
  const where = args.parentUid ? ` in group ${args.parentUid}` : "";
  const owner = (role: Role) => (role.parentUid ? `of group ${role.parentUid}` : "built-in");
  try {
    return exactlyOne(
      `getRole: role named ${JSON.stringify(args.name)}${where}`,
      page.items,
      page.totalCount,
      (role) => `${role.uid} ${owner(role)}`,
    );
  } catch (error) {
    if (args.parentUid || page.items.length < 2) throw error;
    throw new Error(
      `${(error as Error).message}; pass parentUid to pick the custom role of one group`,
    );
  }
}

/** {@link getRole} for inputs that are Pulumi outputs. */
export function getRoleOutput(
  args: GetRoleOutputArgs,
  opts?: LookupOptions,
): pulumi.Output<GetRoleResult> {
  return pulumi.output(args).apply((resolved) => getRole(resolved, opts));
}

/** Every role visible to the caller, optionally only those with this exact name. */
export async function getRoles(args: GetRolesArgs = {}, opts?: LookupOptions): Promise<Role[]> {
  checkArguments("getRoles", args, { name: { kind: "name" } });
  return lookupClient(opts).iam.roles.list({ name: args.name }, { signal: opts?.signal }).all();
}

/** The repository with this exact name, optionally below a group; fails unless exactly one. */
export async function getRepo(args: GetRepoArgs, opts?: LookupOptions): Promise<GetRepoResult> {
  checkArguments(
    "getRepo",
    args,
    { name: { required: true, kind: "name" }, groupUid: { kind: "groupUid" } },
    MAX_REPO_NAME_LENGTH,
  );
  const page = await lookupClient(opts).registry.repos.list(
    { name: args.name, descendantsOf: args.groupUid, pageSize: MAX_PAGE_SIZE },
    { signal: opts?.signal },
  );
  const where = args.groupUid ? ` under ${args.groupUid}` : "";
  return exactlyOne(
    `getRepo: repository named ${JSON.stringify(args.name)}${where}`,
    page.items,
    page.totalCount,
  );
}

/** {@link getRepo} for inputs that are Pulumi outputs. */
export function getRepoOutput(
  args: GetRepoOutputArgs,
  opts?: LookupOptions,
): pulumi.Output<GetRepoResult> {
  return pulumi.output(args).apply((resolved) => getRepo(resolved, opts));
}

/** Every repository visible to the caller, optionally below a group and/or by exact name. */
export async function getRepos(args: GetReposArgs = {}, opts?: LookupOptions): Promise<Repo[]> {
  checkArguments(
    "getRepos",
    args,
    { name: { kind: "name" }, groupUid: { kind: "groupUid" } },
    MAX_REPO_NAME_LENGTH,
  );
  return lookupClient(opts)
    .registry.repos.list(
      { descendantsOf: args.groupUid, name: args.name },
      { signal: opts?.signal },
    )
    .all();
}

/** The group with this exact name directly under `parentUid`; fails unless exactly one. */
export async function getGroup(args: GetGroupArgs, opts?: LookupOptions): Promise<GetGroupResult> {
  checkArguments("getGroup", args, {
    name: { required: true, kind: "name" },
    parentUid: { required: true, kind: "groupUid" },
  });
  const page = await lookupClient(opts).iam.groups.list(
    { name: args.name, childrenOf: args.parentUid, pageSize: MAX_PAGE_SIZE },
    { signal: opts?.signal },
  );
  return exactlyOne(
    `getGroup: group named ${JSON.stringify(args.name)} under ${args.parentUid}`,
    page.items,
    page.totalCount,
  );
}
