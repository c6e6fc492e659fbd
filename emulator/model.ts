/** Stored records of every collection and the capabilities roles grant. */
import type { AwsIdentity, ClaimMatch, ServicePrincipal, StaticKeys } from "./identity-kinds";

export interface Timestamps {
  createTime: string;
  updateTime: string;
}

export interface GroupRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  /** Limits of the organisation; v2 shows them as int64 strings, v1 as integers. */
  resourceLimits: Record<string, number>;
  verified: boolean;
}

export type { AwsIdentity, ClaimMatch, ServicePrincipal, StaticKeys } from "./identity-kinds";

/**
 * An identity. Exactly one of the relationship members is set (addendum 6.1; the rules
 * of each kind live in `identity-kinds.ts`). A record of an earlier version,
 * `claimMatch: {issuer, subject}`, is a valid `claimMatch` identity as it is.
 */
export interface IdentityRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  claimMatch?: ClaimMatch;
  staticKeys?: StaticKeys;
  awsIdentity?: AwsIdentity;
  servicePrincipal?: ServicePrincipal;
  lastSeenTime?: string;
}

export interface RoleRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  capabilities: string[];
  /** Group the custom role belongs to; "" for a built-in role. */
  parentUid: string;
}

export interface RoleBindingRecord extends Timestamps {
  uid: string;
  identityUid: string;
  roleUid: string;
}

export interface RepoRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  catalogTier: string;
  aliases: string[];
  /** Public repos are readable without a token. */
  public: boolean;
}

export interface TagRecord extends Timestamps {
  uid: string;
  name: string;
  digest: string;
  deprecated: boolean;
}

export interface AdvisoryRecord extends Timestamps {
  uid: string;
  advisoryId: string;
  aliases: string[];
  packageName: string;
  severity: string;
}

/** Collections whose operations are guarded by `<collection>.<verb>` capabilities. */
export const COLLECTIONS = [
  "groups",
  "identities",
  "roles",
  "roleBindings",
  "repos",
  "tags",
  "advisories",
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

export const VERBS = ["list", "get", "create", "update", "delete"] as const;
export type Verb = (typeof VERBS)[number];

export const ALL_CAPABILITIES: readonly string[] = COLLECTIONS.flatMap((collection) =>
  VERBS.map((verb) => `${collection}.${verb}`),
);

const READ_VERBS = new Set<string>(["list", "get"]);

/**
 * Built-in roles. `editor` can read everything and change everything but roles
 * and role bindings (so an editor can never grant access, only use it).
 */
export const BUILT_IN_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  capabilities: string[];
}> = [
  { name: "owner", description: "Every capability", capabilities: [...ALL_CAPABILITIES] },
  {
    name: "editor",
    description: "Read everything; change everything but roles and role bindings",
    capabilities: ALL_CAPABILITIES.filter((capability) => {
      const [collection, verb] = capability.split(".");
      return READ_VERBS.has(verb) || (collection !== "roles" && collection !== "roleBindings");
    }),
  },
  {
    name: "viewer",
    description: "Read everything",
    capabilities: ALL_CAPABILITIES.filter((capability) => READ_VERBS.has(capability.split(".")[1])),
  },
  {
    name: "registry.pull",
    description: "Read repositories and tags",
    capabilities: ["repos.list", "repos.get", "tags.list", "tags.get"],
  },
];

/** Names of groups, identities and roles. */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;
export const NAME_PATTERN_TEXT = "^[a-z0-9 ._-]{1,}$";
