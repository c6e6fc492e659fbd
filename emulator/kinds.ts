/**
 * Every collection the emulator keeps, registered once. The state's stores, the saved
 * state and the journal (`state.ts`, `persistence.ts`), the router's paths (`api.ts`),
 * and what a group's delete counts as its contents (`collections/groups.ts`) all read
 * this list. A new collection is its module under `collections/`, its record type in
 * `model.ts`, one entry here, its handler in `api.ts` (whose table the compiler refuses
 * without it), and the prefix of its capabilities in `sdk/capabilities.ts` (the
 * compiler refuses this module without it).
 */

import { type CapabilityVerb, capabilityFor as sdkCapabilityFor } from "../sdk/capabilities";
import type {
  AccountAssociationRecord,
  AdvisoryDocumentRecord,
  AdvisoryRecord,
  ArtifactRecord,
  ArtifactVersionRecord,
  Capability,
  ExternalGroupRoleMappingRecord,
  GroupInviteRecord,
  GroupRecord,
  IdentityProviderRecord,
  IdentityRecord,
  OverlayBindingRecord,
  OverlayRecord,
  RepoRecord,
  RequestGroupItemRecord,
  RequestGroupRecord,
  RoleBindingRecord,
  RoleRecord,
  SubscriptionRecord,
  TagRecord,
  VulnerabilityMetadataRecord,
} from "./model";

export interface Kind<N extends string, T extends { uid: string }, Later extends boolean> {
  /**
   * The collection's name: the path segment of its v2beta1 route, its store in the
   * state, its key in `--data` files and journal records.
   */
  name: N;
  /** The API its v2beta1 route is under: `/<domain>/v2beta1/<name>`. */
  domain: "iam" | "registry" | "vulnerabilities" | "events" | "advisory" | "libraries";
  /** The path segment of its v2beta1 route when it is not `name`. */
  segment?: string;
  /** The segment of the v1 list still served, `/<domain>/v1/<v1>`, if any. */
  v1?: string;
  /** The key of the store's name index (unique where the collection needs it). */
  nameKey: (record: T) => string;
  /**
   * How a group's delete refusal counts these records under the group, singular and
   * plural; `ownUid` when the record's uid is the group's own. Absent: never counted.
   */
  contents?: {
    one: string;
    many: string;
    ownUid?: true;
    /**
     * Whether a record still counts; one that does not (a deleted request group's
     * tombstone) goes with the group's delete. Absent: every record counts.
     */
    counts?: (record: T) => boolean;
  };
  /** Absent from `--data` files written before the collection existed (read as none). */
  addedLater: Later;
}

/** A kind whose records are `T` (its literal members kept for the state's and router's types). */
function kind<T extends { uid: string }>() {
  return <const S extends Kind<string, T, boolean>>(
    spec: S,
  ): S & { nameKey: (record: T) => string } => spec;
}

/**
 * The collections, in the order a group's delete refusal names its contents and a
 * snapshot lists them.
 */
export const KINDS = [
  kind<GroupRecord>()({
    name: "groups",
    domain: "iam",
    v1: "groups",
    nameKey: (group) => group.name,
    contents: { one: "child group", many: "child groups" },
    addedLater: false,
  }),
  kind<IdentityRecord>()({
    name: "identities",
    domain: "iam",
    v1: "identities",
    nameKey: (identity) => identity.name,
    contents: { one: "identity", many: "identities" },
    addedLater: false,
  }),
  kind<RoleBindingRecord>()({
    name: "roleBindings",
    domain: "iam",
    v1: "rolebindings",
    nameKey: () => "",
    contents: { one: "role binding", many: "role bindings" },
    addedLater: false,
  }),
  kind<RepoRecord>()({
    name: "repos",
    domain: "registry",
    v1: "repos",
    nameKey: (repo) => repo.name,
    contents: { one: "repo", many: "repos" },
    addedLater: false,
  }),
  kind<TagRecord>()({
    name: "tags",
    domain: "registry",
    v1: "tags",
    nameKey: (tag) => tag.name,
    addedLater: false,
  }),
  kind<RoleRecord>()({
    // Built-in roles have flat uids; a custom role is a child of its group.
    name: "roles",
    domain: "iam",
    v1: "roles",
    nameKey: (role) => role.name,
    contents: { one: "custom role", many: "custom roles" },
    addedLater: false,
  }),
  kind<IdentityProviderRecord>()({
    name: "identityProviders",
    domain: "iam",
    v1: "identityProviders",
    nameKey: (provider) => provider.name,
    contents: { one: "identity provider", many: "identity providers" },
    addedLater: true,
  }),
  kind<GroupInviteRecord>()({
    // Invites have no name; the name index holds `keyId`, which must stay unique.
    name: "groupInvites",
    domain: "iam",
    v1: "group_invites",
    nameKey: (invite) => invite.keyId,
    contents: { one: "group invite", many: "group invites" },
    addedLater: true,
  }),
  kind<AccountAssociationRecord>()({
    // An association's uid is its group's uid, so its scope parent is the group's parent.
    name: "accountAssociations",
    domain: "iam",
    v1: "account_associations",
    nameKey: (association) => association.name,
    contents: { one: "account association", many: "account associations", ownUid: true },
    addedLater: true,
  }),
  kind<ExternalGroupRoleMappingRecord>()({
    // A child of its identity provider; the definitions annotate its calls with the
    // identity providers' capabilities (a create also needs CAP_IAM_ROLE_BINDINGS_CREATE;
    // `sdk/capabilities.ts`).
    name: "externalGroupRoleMappings",
    domain: "iam",
    nameKey: () => "",
    addedLater: true,
  }),
  kind<OverlayRecord>()({
    // A named package overlay of a group (Custom Assembly); no update: delete and recreate.
    name: "overlays",
    domain: "registry",
    nameKey: (overlay) => overlay.name,
    contents: { one: "overlay", many: "overlays" },
    addedLater: true,
  }),
  kind<OverlayBindingRecord>()({
    // An overlay bound to one repo under exact tags; a child of the repo, no name.
    name: "overlayBindings",
    domain: "registry",
    nameKey: () => "",
    addedLater: true,
  }),
  kind<SubscriptionRecord>()({
    // Webhooks have no name; the name index holds the sink (not unique).
    name: "subscriptions",
    domain: "events",
    v1: "subscriptions",
    nameKey: (subscription) => subscription.sink,
    contents: { one: "event subscription", many: "event subscriptions" },
    addedLater: true,
  }),
  kind<AdvisoryRecord>()({
    name: "advisories",
    domain: "vulnerabilities",
    nameKey: (advisory) => advisory.advisoryId,
    addedLater: false,
  }),
  kind<AdvisoryDocumentRecord>()({
    // Security advisory documents (`SecurityAdvisoryService`): seeded, read without a token.
    name: "documents",
    domain: "advisory",
    nameKey: (document) => document.id,
    addedLater: true,
  }),
  kind<VulnerabilityMetadataRecord>()({
    // The metadata of vulnerability ids (`/advisory/v2beta1/metadata`): seeded, no token.
    name: "vulnerabilityMetadata",
    domain: "advisory",
    segment: "metadata",
    nameKey: (metadata) => metadata.id,
    addedLater: true,
  }),
  kind<ArtifactRecord>()({
    // Chainguard Libraries artifacts (`/libraries/v2beta1/artifacts`): seeded, read only.
    name: "artifacts",
    domain: "libraries",
    nameKey: (artifact) => artifact.name,
    addedLater: true,
  }),
  kind<ArtifactVersionRecord>()({
    // The versions of an artifact, children of it: `/libraries/v2beta1/artifacts/<id>/versions`.
    name: "artifactVersions",
    domain: "libraries",
    segment: "artifacts",
    nameKey: (version) => version.version,
    addedLater: true,
  }),
  kind<RequestGroupRecord>()({
    // An organisation's requests for library versions: `/libraries/v2beta1/requestGroups`.
    name: "requestGroups",
    domain: "libraries",
    nameKey: (group) => group.name,
    contents: {
      one: "request group",
      many: "request groups",
      counts: (group) => group.status !== "REQUEST_GROUP_STATUS_CANCELED",
    },
    addedLater: true,
  }),
  kind<RequestGroupItemRecord>()({
    // The items of a request group, children of it: `requestGroups/<uid>/items`.
    name: "requestGroupItems",
    domain: "libraries",
    segment: "requestGroups",
    nameKey: (item) => item.packageName,
    addedLater: true,
  }),
] as const;

export type AnyKind = (typeof KINDS)[number];
export type CollectionName = AnyKind["name"];
/** The record type of collection `N`. */
export type RecordOf<N extends CollectionName> = Extract<AnyKind, { name: N }>["nameKey"] extends (
  record: infer T extends { uid: string },
) => string
  ? T
  : never;

/** Any kind, its records seen as plain `{ uid }` records (for code that handles every kind alike). */
export type KindEntry = Kind<CollectionName, { uid: string }, boolean>;

/** {@link KINDS} as entries of one type, for loops over every kind. */
export const KIND_ENTRIES = KINDS as readonly KindEntry[];
/** Collections with a v1 list. */
export type V1CollectionName = Extract<AnyKind, { v1: string }>["name"];

/** Every collection's name, in the list's order. */
export const KIND_NAMES: readonly CollectionName[] = KINDS.map((entry) => entry.name);

/** The IAM collections, `/iam/v2beta1/<name>` (for comparing with the other layers' lists). */
export const IAM_KINDS: readonly CollectionName[] = KINDS.filter(
  (entry) => entry.domain === "iam",
).map((entry) => entry.name);

/** `/<domain>/v2beta1/<name>`: the path of a collection's v2beta1 list. */
export function v2beta1Path(name: CollectionName): string {
  const entry = KIND_ENTRIES.find((candidate) => candidate.name === name);
  return `/${entry?.domain}/v2beta1/${entry?.segment ?? name}`;
}

/** `<domain>/v2beta1/<segment>` of every collection. */
export function v2beta1Routes(): string[] {
  return KIND_ENTRIES.map((entry) => `${entry.domain}/v2beta1/${entry.segment ?? entry.name}`);
}

export function isCollectionName(name: unknown): name is CollectionName {
  return (KIND_NAMES as readonly unknown[]).includes(name);
}

// ---------------------------------------------------------------- capabilities

export type Verb = CapabilityVerb;

/**
 * The capability an operation needs (`sdk/capabilities.ts`: a Get needs the collection's
 * LIST value, as every Get of the API is annotated). The SDK's table is keyed by
 * collection, so a kind without its line there does not compile.
 */
export function capabilityFor(collection: CollectionName, verb: Verb): Capability {
  return sdkCapabilityFor(collection, verb) as Capability;
}
