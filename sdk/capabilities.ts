/**
 * Capabilities: the value names of the platform's `Capability` enum, as they travel
 * in `Role.capabilities` and `GroupInviteRole.capabilities` (`CAP_IAM_GROUPS_CREATE`,
 * `CAP_REPO_LIST`, ...). There is no GET capability: a Get needs the collection's
 * LIST value. The SDK sends capabilities as given (the service judges them) and
 * accepts any of these names in an answer; the provider's `check` refuses any other
 * name before a request, and names the replacement of the project's former
 * `<collection>.<verb>` names (`groups.create` -> `CAP_IAM_GROUPS_CREATE`).
 */

/**
 * Every value of the enum but `UNKNOWN` (216), in the order of the enum's numbers. Some
 * are internal to the platform or deprecated; the list holds them all, since an answer
 * may carry any of them. The emulator's built-in roles are written over this list.
 */
export const CAPABILITIES = [
  "CAP_INTERNAL",
  "CAP_IAM_GROUPS_CREATE",
  "CAP_IAM_GROUPS_UPDATE",
  "CAP_IAM_GROUPS_LIST",
  "CAP_IAM_GROUPS_DELETE",
  "CAP_IAM_GROUP_INVITES_CREATE",
  "CAP_IAM_GROUP_INVITES_LIST",
  "CAP_IAM_GROUP_INVITES_DELETE",
  "CAP_IAM_ROLES_CREATE",
  "CAP_IAM_ROLES_UPDATE",
  "CAP_IAM_ROLES_LIST",
  "CAP_IAM_ROLES_DELETE",
  "CAP_IAM_ROLE_BINDINGS_CREATE",
  "CAP_IAM_ROLE_BINDINGS_UPDATE",
  "CAP_IAM_ROLE_BINDINGS_LIST",
  "CAP_IAM_ROLE_BINDINGS_DELETE",
  "CAP_TENANT_CLUSTERS_CREATE",
  "CAP_TENANT_CLUSTERS_UPDATE",
  "CAP_TENANT_CLUSTERS_LIST",
  "CAP_TENANT_CLUSTERS_DELETE",
  "CAP_TENANT_CLUSTERS_DISCOVER",
  "CAP_TENANT_RECORDS_LIST",
  "CAP_TENANT_RECORD_CONTEXTS_LIST",
  "CAP_TENANT_RECORD_SIGNATURES_LIST",
  "CAP_TENANT_RECORD_POLICY_RESULTS_LIST",
  "CAP_TENANT_RISKS_LIST",
  "CAP_TENANT_SBOMS_LIST",
  "CAP_TENANT_VULN_REPORTS_LIST",
  "CAP_TENANT_ATTESTATIONS_LIST",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_CREATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_UPDATE",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_LIST",
  "CAP_IAM_ACCOUNT_ASSOCIATIONS_DELETE",
  "CAP_IAM_POLICY_CREATE",
  "CAP_IAM_POLICY_UPDATE",
  "CAP_IAM_POLICY_LIST",
  "CAP_IAM_POLICY_DELETE",
  "CAP_IAM_IDENTITY_CREATE",
  "CAP_IAM_IDENTITY_UPDATE",
  "CAP_IAM_IDENTITY_LIST",
  "CAP_IAM_IDENTITY_DELETE",
  "CAP_TENANT_NODES_LIST",
  "CAP_TENANT_NAMESPACES_LIST",
  "CAP_TENANT_WORKLOADS_LIST",
  "CAP_IAM_IDENTITY_PROVIDERS_CREATE",
  "CAP_IAM_IDENTITY_PROVIDERS_UPDATE",
  "CAP_IAM_IDENTITY_PROVIDERS_LIST",
  "CAP_IAM_IDENTITY_PROVIDERS_DELETE",
  "CAP_IAM_SCIM_MANAGE",
  "CAP_EVENTS_SUBSCRIPTION_CREATE",
  "CAP_EVENTS_SUBSCRIPTION_UPDATE",
  "CAP_EVENTS_SUBSCRIPTION_LIST",
  "CAP_EVENTS_SUBSCRIPTION_DELETE",
  "CAP_REPO_BLOBS_GET",
  "CAP_REPO_CREATE",
  "CAP_REPO_UPDATE",
  "CAP_REPO_LIST",
  "CAP_REPO_DELETE",
  "CAP_MANIFEST_CREATE",
  "CAP_MANIFEST_UPDATE",
  "CAP_MANIFEST_LIST",
  "CAP_MANIFEST_DELETE",
  "CAP_TAG_CREATE",
  "CAP_TAG_UPDATE",
  "CAP_TAG_LIST",
  "CAP_TAG_DELETE",
  "CAP_MANIFEST_METADATA_LIST",
  "CAP_REFERRERS_LIST",
  "CAP_REPO_INTERNAL_ADMIN",
  "CAP_APK_CREATE",
  "CAP_APK_UPDATE",
  "CAP_APK_LIST",
  "CAP_APK_DELETE",
  "CAP_VERSION_LIST",
  "CAP_APK_BLOBS_GET",
  "CAP_VULN_REPORT_CREATE",
  "CAP_VULN_REPORT_LIST",
  "CAP_VULN_CREATE",
  "CAP_BUILD_REPORT_LIST",
  "CAP_REGISTRY_ENTITLEMENTS_LIST",
  "CAP_REGISTRY_ENTITLEMENTS_CREATE",
  "CAP_REGISTRY_ENTITLEMENTS_DELETE",
  "CAP_REGISTRY_SETTINGS_LIST",
  "CAP_REGISTRY_SETTINGS_UPDATE",
  "CAP_REGISTRY_ENTITLEMENTS_IMAGES_ADD",
  "CAP_REGISTRY_ENTITLEMENTS_IMAGES_REMOVE",
  "CAP_REGISTRY_ENTITLEMENTS_IMAGES_SWAP",
  "CAP_REGISTRY_OVERLAYS_LIST",
  "CAP_REGISTRY_OVERLAYS_EDIT",
  "CAP_SIGSTORE_CREATE",
  "CAP_SIGSTORE_UPDATE",
  "CAP_SIGSTORE_LIST",
  "CAP_SIGSTORE_DELETE",
  "CAP_SIGSTORE_CERTIFICATE_CREATE",
  "CAP_LIBRARIES_ENTITLEMENTS_CREATE",
  "CAP_LIBRARIES_ENTITLEMENTS_LIST",
  "CAP_LIBRARIES_ENTITLEMENTS_DELETE",
  "CAP_LIBRARIES_ARTIFACTS_LIST",
  "CAP_LIBRARIES_PYTHON_LIST",
  "CAP_LIBRARIES_PYTHON_CREATE",
  "CAP_LIBRARIES_JAVA_LIST",
  "CAP_LIBRARIES_JAVA_CREATE",
  "CAP_LIBRARIES_JAVASCRIPT_LIST",
  "CAP_LIBRARIES_JAVASCRIPT_CREATE",
  "CAP_LIBRARIES_DOTNET_LIST",
  "CAP_LIBRARIES_DOTNET_CREATE",
  "CAP_LIBRARIES_GO_LIST",
  "CAP_LIBRARIES_GO_CREATE",
  "CAP_LIBRARIES_REBUILDER_REQUESTS_CREATE",
  "CAP_LIBRARIES_REBUILDER_REQUESTS_LIST",
  "CAP_LIBRARIES_REBUILDER_REQUESTS_CANCEL",
  "CAP_LIBRARIES_REBUILDER_REQUESTS_GROUP_UPDATE",
  "CAP_LIBRARIES_REBUILDER_ARTIFACTS_INVALIDATE",
  "CAP_LIBRARIES_REBUILDER_EXCLUSIONS_MANAGE",
  "CAP_LIBRARIES_REBUILDER_BUILDS_READ",
  "CAP_LIBRARIES_REBUILDER_BUILDS_TOKENS_FETCH",
  "CAP_LIBRARIES_REBUILDER_BUILDS_UNTRUSTED",
  "CAP_LIBRARIES_REBUILDER_REMEDIATED_ARTIFACTS_READ",
  "CAP_LIBRARIES_REBUILDER_NEW_VERSIONS_READ",
  "CAP_LIBRARIES_REBUILDER_NEW_VERSIONS_REFRESH",
  "CAP_LIBRARIES_REBUILDER_MALWARE_STATUS_READ",
  "CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_LIST",
  "CAP_LIBRARIES_CACHE_INVALIDATE",
  "CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_UPDATE",
  "CAP_LIBRARIES_CACHE_LIST",
  "CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_WRITE",
  "CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_RESOLVE",
  "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_CREATE",
  "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_UPDATE",
  "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_LIST",
  "CAP_LIBRARIES_REQUEST_GROUPS_CREATE",
  "CAP_LIBRARIES_REQUEST_GROUPS_LIST",
  "CAP_LIBRARIES_REQUEST_GROUPS_UPDATE",
  "CAP_LIBRARIES_REQUEST_GROUPS_DELETE",
  "CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT",
  "CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE",
  "CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE",
  "CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED",
  "CAP_LIBRARIES_REMOTE_REGISTRIES_CREATE",
  "CAP_LIBRARIES_REMOTE_REGISTRIES_LIST",
  "CAP_LIBRARIES_REMOTE_REGISTRIES_DELETE",
  "CAP_ADVISORIES_CREATE",
  "CAP_ADVISORIES_UPDATE",
  "CAP_ADVISORIES_LIST",
  "CAP_ADVISORIES_DELETE",
  "CAP_ADVISORIES_APPROVE",
  "CAP_REGISTRY_DEPLOYMENTS_CREATE",
  "CAP_REGISTRY_DEPLOYMENTS_UPDATE",
  "CAP_REGISTRY_DEPLOYMENTS_LIST",
  "CAP_POLICIES_POLICY_CREATE",
  "CAP_POLICIES_POLICY_UPDATE",
  "CAP_POLICIES_POLICY_LIST",
  "CAP_POLICIES_POLICY_DELETE",
  "CAP_POLICIES_BINDING_CREATE",
  "CAP_POLICIES_BINDING_UPDATE",
  "CAP_POLICIES_BINDING_LIST",
  "CAP_POLICIES_BINDING_DELETE",
  "CAP_POLICIES_DECISION_LIST",
  "CAP_POLICIES_OVERRIDE_CREATE",
  "CAP_POLICIES_OVERRIDE_LIST",
  "CAP_POLICIES_OVERRIDE_DELETE",
  "CAP_REPO_CHECK_POLICIES",
  "CAP_PACKAGES_ENTITLEMENTS_LIST",
  "CAP_TERMS_ACCEPT",
  "CAP_TERMS_LIST",
  "CAP_GUARDENER_DFC_CONVERT",
  "CAP_GUARDENER_ASSOCIATION_MANAGE",
  "CAP_GUARDENER_ASSOCIATION_LIST",
  "CAP_GUARDENER_ENTITLEMENT_MANAGE",
  "CAP_GUARDENER_ENTITLEMENT_LIST",
  "CAP_GUARDENER_ACTIONS_MIGRATE",
  "CAP_GUARDENER_SCAN_LIST",
  "CAP_GUARDENER_SCAN_GET",
  "CAP_MCP_TOOL_CALL",
  "CAP_SKILLS_PUBLISH",
  "CAP_SKILLS_ENTITLEMENTS_CREATE",
  "CAP_SKILLS_ENTITLEMENTS_LIST",
  "CAP_SKILLS_ENTITLEMENTS_DELETE",
  "CAP_SKILLS_WRITE",
  "CAP_SKILLS_DELETE",
  "CAP_SKILLS_LIST",
  "CAP_SKILLS_HARDEN_READ",
  "CAP_SKILLS_HARDEN_WRITE",
  "CAP_SKILLS_HARDEN_CANCEL",
  "CAP_ARGOS_DOCUMENTS_CREATE",
  "CAP_ARGOS_DOCUMENTS_LIST",
  "CAP_ARGOS_DOCUMENTS_DELETE",
  "CAP_ARGOS_OSV_READ",
  "CAP_LIBRARIES_POLICY_CREATE",
  "CAP_LIBRARIES_POLICY_UPDATE",
  "CAP_LIBRARIES_POLICY_LIST",
  "CAP_LIBRARIES_POLICY_DELETE",
  "CAP_LIBRARIES_POLICY_BINDING_CREATE",
  "CAP_LIBRARIES_POLICY_BINDING_UPDATE",
  "CAP_LIBRARIES_POLICY_BINDING_LIST",
  "CAP_LIBRARIES_POLICY_BINDING_DELETE",
  "CAP_LIBRARIES_POLICY_BLOCK_EVENT_LIST",
  "CAP_ARGOS_OSV_DUMP",
  "CAP_ACTIONS_LIST",
  "CAP_BUILDAPI_BUILD_CREATE",
  "CAP_BUILDAPI_BUILD_LIST",
  "CAP_BUILDAPI_WORKER_SYNC",
  "CAP_BUILDAPI_BUILD_CANCEL",
  "CAP_REX_EXECUTIONS_CREATE",
  "CAP_REX_EXECUTIONS_LIST",
  "CAP_REX_WORKERS_CONNECT",
  "CAP_REX_CLASS_USE",
  "CAP_REX_CLASS_SERVE",
  "CAP_CASSIE_CAS_READ",
  "CAP_CASSIE_CAS_WRITE",
  "CAP_CASSIE_AC_WRITE",
  "CAP_CASSIE_AC_READ",
  "CAP_LOGGIE_LOGS_READ",
  "CAP_LOGGIE_LOGS_WRITE",
  "CAP_LOGGIE_LOGS_CREATE",
  "CAP_GULFSTREAM",
] as const;

/** A capability's wire name: one of {@link CAPABILITIES}. */
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Names a capability: one of `Capability`; any other string is the service's to judge
 * (answers may carry values newer than this SDK's list).
 */
export type CapabilityName = Capability | (string & Record<never, never>);

const KNOWN: ReadonlySet<string> = new Set(CAPABILITIES);

/** True for a name of {@link CAPABILITIES}. */
export function isCapability(name: string): name is Capability {
  return KNOWN.has(name);
}

/**
 * The enum prefix of each collection's capabilities (`CAP_IAM_GROUPS` + `_CREATE`), by
 * the collection's name in the API's paths and the client (`roleBindings`). The
 * emulator's checks of who may do what, and the former names below, read it.
 */
export const CAPABILITY_PREFIXES = {
  groups: "CAP_IAM_GROUPS",
  identities: "CAP_IAM_IDENTITY",
  roles: "CAP_IAM_ROLES",
  roleBindings: "CAP_IAM_ROLE_BINDINGS",
  identityProviders: "CAP_IAM_IDENTITY_PROVIDERS",
  accountAssociations: "CAP_IAM_ACCOUNT_ASSOCIATIONS",
  groupInvites: "CAP_IAM_GROUP_INVITES",
  // The definitions annotate a mapping's calls with the identity providers' capabilities.
  externalGroupRoleMappings: "CAP_IAM_IDENTITY_PROVIDERS",
  repos: "CAP_REPO",
  tags: "CAP_TAG",
  advisories: "CAP_ADVISORIES",
  subscriptions: "CAP_EVENTS_SUBSCRIPTION",
  // Custom Assembly: a create or delete needs the EDIT value (`CAPABILITY_OF_VERB`).
  overlays: "CAP_REGISTRY_OVERLAYS",
  overlayBindings: "CAP_REGISTRY_OVERLAYS",
  documents: "CAP_ADVISORIES",
  vulnerabilityMetadata: "CAP_ADVISORIES",
  artifacts: "CAP_LIBRARIES_ARTIFACTS",
  artifactVersions: "CAP_LIBRARIES_ARTIFACTS",
  requestGroups: "CAP_LIBRARIES_REQUEST_GROUPS",
  requestGroupItems: "CAP_LIBRARIES_REQUEST_GROUPS",
} as const;

/** A collection of {@link CAPABILITY_PREFIXES}. */
export type CapabilityCollection = keyof typeof CAPABILITY_PREFIXES;

/** The verbs of an operation on a collection. */
export const CAPABILITY_VERBS = ["list", "get", "create", "update", "delete"] as const;
export type CapabilityVerb = (typeof CAPABILITY_VERBS)[number];

/**
 * The operations whose capability is not `<prefix>_<VERB>`, as the definitions annotate
 * them: an overlay's or an overlay binding's create and delete both need
 * `CAP_REGISTRY_OVERLAYS_EDIT`.
 */
const CAPABILITY_OF_VERB: Partial<
  Record<CapabilityCollection, Partial<Record<CapabilityVerb, Capability>>>
> = {
  overlays: { create: "CAP_REGISTRY_OVERLAYS_EDIT", delete: "CAP_REGISTRY_OVERLAYS_EDIT" },
  overlayBindings: { create: "CAP_REGISTRY_OVERLAYS_EDIT", delete: "CAP_REGISTRY_OVERLAYS_EDIT" },
};

/**
 * The name of the capability an operation needs: `<prefix>_<VERB>`, but for the few
 * operations annotated otherwise (`CAPABILITY_OF_VERB`). There is no GET
 * capability: a Get needs the collection's LIST value, as every Get of the API is
 * annotated. Not every pair is a value of the enum (`CAP_IAM_GROUP_INVITES_UPDATE` is
 * not): {@link isCapability} tells.
 */
export function capabilityFor(collection: CapabilityCollection, verb: CapabilityVerb): string {
  const named = CAPABILITY_OF_VERB[collection]?.[verb];
  if (named !== undefined) return named;
  const suffix = verb === "get" ? "LIST" : verb.toUpperCase();
  return `${CAPABILITY_PREFIXES[collection]}_${suffix}`;
}

/**
 * The collections the project's former names (`<collection>.<verb>`) were written for;
 * the collections added after the enum names replaced them never had one.
 */
const FORMER_NAME_COLLECTIONS: ReadonlySet<string> = new Set<CapabilityCollection>([
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
]);

/** What a former name stands for today. */
export type LegacyCapability =
  /** The enum value granting what the former name granted. */
  | { kind: "renamed"; replacement: Capability }
  /** A former `<collection>.get`: no value of its own; a Get needs `list`, the LIST value. */
  | { kind: "get"; list: Capability };

/**
 * The enum value of one of the project's former capability names (`groups.create`,
 * `roleBindings.delete`, `repos.get`, ...), or undefined for any other string
 * (including the enum's own names and its `(name)` display strings such as
 * `role_bindings.create`, which never travel on the wire).
 */
export function legacyCapability(name: string): LegacyCapability | undefined {
  const match = /^([A-Za-z]+)\.(list|get|create|update|delete)$/.exec(name);
  if (match === null) return undefined;
  const [, collection, verb] = match as unknown as [string, CapabilityCollection, CapabilityVerb];
  if (!FORMER_NAME_COLLECTIONS.has(collection)) return undefined;
  const list = capabilityFor(collection, "list");
  if (!isCapability(list)) return undefined;
  if (verb === "get") return { kind: "get", list };
  const replacement = capabilityFor(collection, verb);
  // groupInvites.update never existed, and the enum has no value for it either.
  return isCapability(replacement) ? { kind: "renamed", replacement } : undefined;
}

/**
 * A set of capabilities written with former names, as the same set in enum names:
 * each renamed name becomes its value, a former `*.get` (which has no value) is
 * dropped, enum names stay; sorted, each once. Any other string is kept as it is,
 * so an unknown name still makes a difference.
 */
export function capabilitiesInEnumNames(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    const legacy = legacyCapability(name);
    if (legacy === undefined) out.add(name);
    else if (legacy.kind === "renamed") out.add(legacy.replacement);
  }
  return [...out].sort();
}
