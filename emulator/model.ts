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

/**
 * A custom identity provider: an outside OIDC provider users of a group sign in through.
 * The client secret is kept only as its SHA-256 digest; the API never answers it.
 */
export interface IdentityProviderRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  /** Uid of the role bound, in the provider's group, to a user on first sign-in. */
  defaultRole: string;
  oidc: {
    issuer: string;
    clientId: string;
    /** SHA-256 of the client secret, hex; "" when none is stored (PKCE only). */
    clientSecretDigest: string;
    additionalScopes: string[];
    groupsClaim: string;
    pkceEnabled: boolean;
    correlationRule: string;
  };
}

/**
 * An invite into a group. The code is answered once, by the create, and kept only as
 * its SHA-256 digest. An invite never changes: `updateTime` equals `createTime` and is
 * never answered.
 */
export interface GroupInviteRecord extends Timestamps {
  uid: string;
  roleUid: string;
  email: string;
  expirationTime: string;
  singleUse: boolean;
  /** SHA-256 of the code, hex. */
  codeDigest: string;
  /** 32 lowercase hex characters, unique per invite. */
  keyId: string;
}

/** The outside accounts of a group; its uid is the group's uid (one per group). */
export interface AccountAssociationRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  amazon?: { account: string };
  google?: { projectId: string; projectNumber: string };
  azure?: { tenantId: string; clientIds: Record<string, string> };
  github?: {
    appInstallations: Record<
      string,
      { installations: Array<{ installationId: string; name: string }> }
    >;
  };
  chainguard?: { serviceBindings: Record<string, string> };
}

/** Collections whose operations are guarded by `<collection>.<verb>` capabilities. */
export const COLLECTIONS = [
  "groups",
  "identities",
  "roles",
  "roleBindings",
  "identityProviders",
  "accountAssociations",
  "groupInvites",
  "repos",
  "tags",
  "advisories",
] as const;
export type CollectionName = (typeof COLLECTIONS)[number];

export const VERBS = ["list", "get", "create", "update", "delete"] as const;
export type Verb = (typeof VERBS)[number];

/**
 * The 49 capabilities (addendum, 2.1): every collection with every verb, less
 * `groupInvites.update` (an invite never changes).
 */
export const ALL_CAPABILITIES: readonly string[] = COLLECTIONS.flatMap((collection) =>
  VERBS.map((verb) => `${collection}.${verb}`),
).filter((capability) => capability !== "groupInvites.update");

const READ_VERBS = new Set<string>(["list", "get"]);

/** Collections whose writes grant access; only owners change them (addendum, 2.2). */
const ACCESS_GRANTING = new Set<string>([
  "roles",
  "roleBindings",
  "identityProviders",
  "groupInvites",
  "accountAssociations",
]);

/**
 * Built-in roles. `editor` can read everything and change everything but what grants
 * access (roles, role bindings, identity providers, group invites, account
 * associations), so an editor can never grant access, only use it.
 */
export const BUILT_IN_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  capabilities: string[];
}> = [
  { name: "owner", description: "Every capability", capabilities: [...ALL_CAPABILITIES].sort() },
  {
    name: "editor",
    description: "Read everything; change everything but access grants",
    capabilities: ALL_CAPABILITIES.filter((capability) => {
      const [collection, verb] = capability.split(".");
      return READ_VERBS.has(verb) || !ACCESS_GRANTING.has(collection);
    }).sort(),
  },
  {
    name: "viewer",
    description: "Read everything",
    capabilities: ALL_CAPABILITIES.filter((capability) =>
      READ_VERBS.has(capability.split(".")[1]),
    ).sort(),
  },
  {
    name: "registry.pull",
    description: "Read repositories and tags",
    capabilities: ["repos.get", "repos.list", "tags.get", "tags.list"],
  },
];

/** Names of groups, identities and roles. */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;
export const NAME_PATTERN_TEXT = "^[a-z0-9 ._-]{1,}$";
