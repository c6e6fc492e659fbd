/**
 * Stored records of every collection and the capabilities roles grant. A record whose
 * stored shape is the answered one reuses the SDK's type of that answer (the published
 * wire shape, stated once); what the emulator answers is still built by its own modules.
 */
import type { AccountAssociation } from "../sdk/resources/account-associations";
import type { Identity } from "../sdk/resources/identities";
import type { IdentityProvider, IdentityProviderOidc } from "../sdk/resources/identity-providers";
import type { Advisory } from "../sdk/resources/registry";

export interface Timestamps {
  createTime: string;
  updateTime: string;
}

export interface GroupRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  /** Limits of the organisation (`map<string, int32>`: numbers in v2 and v1). */
  resourceLimits: Record<string, number>;
  verified: boolean;
  /** The legal documents the group accepted (`/iam/v2beta1/terms`); absent: none. */
  termsAcceptances?: TermsAcceptanceRecord[];
}

/** One accepted legal document: which, by whom (the identity's uid), when. */
export interface TermsAcceptanceRecord {
  docId: string;
  acceptedBy: string;
  createTime: string;
}

export type {
  AwsIdentity,
  ClaimMatch,
  ServicePrincipal,
  StaticKeys,
} from "./identity-kinds/shapes";

/**
 * An identity. Exactly one of the relationship members is set (addendum 6.1; the rules
 * of each kind live in `identity-kinds/`). A record of an earlier version,
 * `claimMatch: {issuer, subject}`, is a valid `claimMatch` identity as it is.
 */
export type IdentityRecord = Identity;

export interface RoleRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  /** Capability enum names, in the enum's order. */
  capabilities: string[];
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
  /** The Markdown of its `RepoReadme`; absent (read as "") in records of earlier versions. */
  readme?: string;
}

/** An event subscription: a webhook a group's events are delivered to. */
export interface SubscriptionRecord extends Timestamps {
  uid: string;
  /** The https URL events are delivered to. */
  sink: string;
}

export interface TagRecord extends Timestamps {
  uid: string;
  name: string;
  digest: string;
  deprecated: boolean;
  /**
   * The platforms of the image the digest names and each one's size in bytes, as seeded
   * (`/emulator/seed`); absent: none recorded (the emulator holds no manifests).
   */
  images?: ImagePlatformRecord[];
  /** The vulnerabilities resolved in this image by day, as seeded; absent: none. */
  resolvedVulns?: ResolvedVulnRecord[];
}

/**
 * A vulnerability resolved in an image on a day (`ListResolvedVulnsReports`), as seeded
 * on the tag: the advisory's CGA id, its other ids and its CVSS severities.
 */
export interface ResolvedVulnRecord {
  /** The calendar day, `YYYY-MM-DD` (UTC). */
  date: string;
  id: string;
  aliases: string[];
  cvssSeverities: Array<{ type: string; score: string }>;
}

/**
 * A security advisory document (`SecurityAdvisoryService.ListDocuments`): an origin
 * package (`id`) and its advisories, each `{ id, aliases, packageNamespace, events }`
 * as answered. Seeded only: the emulator makes no documents of its own.
 */
export interface AdvisoryDocumentRecord extends Timestamps {
  uid: string;
  id: string;
  advisories: Array<{
    id: string;
    aliases: string[];
    packageNamespace: string;
    events: Array<Record<string, unknown>>;
  }>;
}

/** What the platform knows of one vulnerability id (`ListVulnerabilityMetadata`); seeded only. */
export interface VulnerabilityMetadataRecord extends Timestamps {
  uid: string;
  id: string;
  summary: string;
  details: string;
  references: Array<{ type: string; url: string }>;
  severities: Array<{ type: string; score: string }>;
}

/**
 * An artifact of a language ecosystem in Chainguard Libraries (`ArtifactsService`),
 * seeded only: the emulator fetches nothing from the language registries. Its uid is
 * flat; its versions are `ArtifactVersionRecord`s under it.
 */
export interface ArtifactRecord extends Timestamps {
  uid: string;
  name: string;
  description: string;
  /** `ECOSYSTEM_JAVA` or `ECOSYSTEM_PYTHON`. */
  ecosystem: string;
  /** Whether remediated builds exist (the list's `remediated` filter). */
  remediated: boolean;
  /** The CUDA versions its Python packages are built for (the list's `cuda_version`). */
  cudaVersions: string[];
}

/** One version of an artifact; its uid is a child of the artifact's. */
export interface ArtifactVersionRecord extends Timestamps {
  uid: string;
  version: string;
  description: string;
  sizeBytes: number;
}

/**
 * An organisation's request for library versions (`RequestGroupsService`); its uid is
 * a child of its group's. `submitTime` unset: a draft. A deleted group stays as a
 * tombstone, `status` `REQUEST_GROUP_STATUS_CANCELED`, without items.
 */
export interface RequestGroupRecord extends Timestamps {
  uid: string;
  name: string;
  status: string;
  ecosystem: string;
  source: string;
  forCveRemediation: boolean;
  submitTime?: string;
  createdBy: string;
  submittedBy?: string;
  filename: string;
  format: string;
  contentHash: string;
  itemCount: number;
  itemsUpdateTime: string;
}

/** One requested version of a request group; its uid is a child of the group's. */
export interface RequestGroupItemRecord extends Timestamps {
  uid: string;
  requirement: string;
  packageName: string;
  version: string;
  ecosystem: string;
  availability: string;
  availabilityReason: string;
  upgrade?: { closestVersion: string; latestVersion: string };
  removed: boolean;
}

/** One platform of an image: `linux/amd64` and its size in bytes. */
export interface ImagePlatformRecord {
  architecture: string;
  size: number;
}

/**
 * A named, reusable package overlay of a group (Custom Assembly): only
 * `config.contents.packages` is accepted. Its uid is a child of the group's.
 */
export interface OverlayRecord extends Timestamps {
  uid: string;
  name: string;
  packages: string[];
}

/** An overlay bound to one repo under exact tags; its uid is a child of the repo's. */
export interface OverlayBindingRecord extends Timestamps {
  uid: string;
  overlayUid: string;
  tags: string[];
}

/**
 * A vulnerability advisory in the platform's `Advisory` shape: which component of which
 * artifact it concerns, its aliases, its events (each a JSON object as answered: `uid`,
 * `createTime`, `author`, `reviewState`, one event member such as `fixed`) and its
 * scored severities.
 */
export interface AdvisoryRecord
  extends Timestamps,
    Omit<Advisory, "createTime" | "updateTime" | "deleteTime" | "events" | "severities"> {
  events: Array<Record<string, unknown>>;
  severities: Array<{ type: string; score: string }>;
}

/**
 * A custom identity provider: an outside OIDC provider users of a group sign in through.
 * The client secret is kept only as its SHA-256 digest; the API never answers it.
 */
export interface IdentityProviderRecord
  extends Timestamps,
    Pick<IdentityProvider, "uid" | "name" | "description" | "defaultRole"> {
  oidc: IdentityProviderOidc & {
    /** SHA-256 of the client secret, hex; "" when none is stored (PKCE only). */
    clientSecretDigest: string;
  };
  /** SCIM provisioning, once a first SCIM token was generated (absent: never issued). */
  scim?: ScimRecord;
}

/**
 * An identity provider's SCIM provisioning: the switch and the bearer tokens, each kept
 * only as its salted digest (`collections/secrets.ts`), never its text.
 */
export interface ScimRecord {
  enabled: boolean;
  tokenDigest: string;
  /** Absent: the token does not expire. */
  tokenExpireTime?: string;
  /** The token a regeneration replaced, while its overlap lasts. */
  previousTokenDigest?: string;
  previousTokenExpireTime?: string;
  /** Set by a revocation: no token authenticates until one is regenerated. */
  revokeTime?: string;
  /** Opaque version, changed by every lifecycle action. */
  etag: string;
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

/**
 * A mapping of an outside provider's group to a role: members of that group signing in
 * through the identity provider get the role at `scope`. Its uid is a child of the
 * identity provider's; a mapping never changes (the platform deletes and recreates).
 */
export interface ExternalGroupRoleMappingRecord extends Timestamps {
  uid: string;
  externalGroupId: string;
  roleUid: string;
  scope: string;
}

/** The outside accounts of a group; its uid is the group's uid (one per group). */
export interface AccountAssociationRecord
  extends Omit<AccountAssociation, "github" | "chainguard"> {
  /** Installation ids as the wire carries them: int64 in decimal. */
  github?: {
    appInstallations: Record<
      string,
      { installations: Array<{ installationId: string; name: string }> }
    >;
  };
  chainguard?: { serviceBindings: Record<string, string> };
}

import {
  CAPABILITIES,
  type Capability,
  EDITOR_CAPABILITIES,
  OWNER_CAPABILITIES,
  REGISTRY_PULL_CAPABILITIES,
  VIEWER_CAPABILITIES,
} from "./capabilities";

export { CAPABILITIES, type Capability } from "./capabilities";

const CAPABILITY_NUMBER = new Map<string, number>(CAPABILITIES.map((name, index) => [name, index]));

export function isCapability(name: string): name is Capability {
  return CAPABILITY_NUMBER.has(name);
}

/** Sorted by the enum's order, without repeats (as the platform sorts a role's set). */
export function sortCapabilities(names: Iterable<string>): string[] {
  return [...new Set(names)].sort(
    (a, b) => (CAPABILITY_NUMBER.get(a) ?? Infinity) - (CAPABILITY_NUMBER.get(b) ?? Infinity),
  );
}

/** Built-in roles and their capability sets, the platform's published ones. */
export const BUILT_IN_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  capabilities: readonly string[];
}> = [
  {
    name: "owner",
    description: "Every capability a user may hold",
    capabilities: OWNER_CAPABILITIES,
  },
  {
    name: "editor",
    description: "Changes state, but grants no roles or permissions",
    capabilities: EDITOR_CAPABILITIES,
  },
  {
    name: "viewer",
    description: "Reads, and pulls from the registries",
    capabilities: VIEWER_CAPABILITIES,
  },
  {
    name: "registry.pull",
    description: "Pulls from the registries",
    capabilities: REGISTRY_PULL_CAPABILITIES,
  },
];

/** Names of groups, identities and roles. */
export const NAME_PATTERN = /^[a-z0-9 ._-]{1,}$/;
export const NAME_PATTERN_TEXT = "^[a-z0-9 ._-]{1,}$";
