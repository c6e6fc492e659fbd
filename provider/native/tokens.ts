/**
 * The native plugin's names, apart from the schema so that the plugin loads nothing
 * more at start: the package, the tokens, and the lookups served as functions.
 */
import type { LOOKUP_ARGUMENTS } from "../lookups";

/** The package's name: the `irm:` config namespace and the first part of every token. */
export const PACKAGE = "irm";

/** The token of a resource type: `irm:index:Group`. */
export function resourceToken(type: string): string {
  return `${PACKAGE}:index:${type}`;
}

/** The token of a lookup served as a function: `irm:index:getRoles`. */
export function functionToken(lookup: string): string {
  return `${PACKAGE}:index:${lookup}`;
}

/** What the server needs of each lookup served as a function. */
export interface InvokeSpec {
  /** The lookup's export in `lookups.ts`. */
  lookup: string;
  /** A listing answers an array, which the function returns as `items`. */
  listing: boolean;
  /** The resource type of what it answers (absent: no resource type, e.g. a tag). */
  returns?: string;
}

/** The lookups served as functions: each a listing (an array, returned as `items`) or not. */
export const LOOKUP_FUNCTIONS: Record<keyof typeof LOOKUP_ARGUMENTS, InvokeSpec> = {
  getGroup: { lookup: "getGroup", listing: false, returns: "Group" },
  getIdentity: { lookup: "getIdentity", listing: false, returns: "Identity" },
  getRole: { lookup: "getRole", listing: false, returns: "Role" },
  getRoles: { lookup: "getRoles", listing: true, returns: "Role" },
  getIdentityProvider: {
    lookup: "getIdentityProvider",
    listing: false,
    returns: "IdentityProvider",
  },
  getExternalGroupRoleMappings: {
    lookup: "getExternalGroupRoleMappings",
    listing: true,
    returns: "ExternalGroupRoleMapping",
  },
  getRepo: { lookup: "getRepo", listing: false, returns: "Repo" },
  getRepos: { lookup: "getRepos", listing: true, returns: "Repo" },
  getTag: { lookup: "getTag", listing: false },
  getTags: { lookup: "getTags", listing: true },
  getSubscriptions: { lookup: "getSubscriptions", listing: true, returns: "Subscription" },
  getAdvisories: { lookup: "getAdvisories", listing: true },
};

/** The functions by token, for the server. */
export const INVOKES: Readonly<Record<string, InvokeSpec>> = Object.fromEntries(
  Object.values(LOOKUP_FUNCTIONS).map((spec) => [functionToken(spec.lookup), spec]),
);
