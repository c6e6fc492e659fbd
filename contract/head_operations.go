package contract

// Every operation of the v2beta1 definitions at HEAD (the public repository at commit
// 934f4954; v0.1.57 holds fewer), served by the emulator or not, and why not. The
// contract suite renders it into docs/api-operations.md, checks it against the module's
// methods (TestHeadOperationsTable: each v0.1.57 method is here, with its HTTP rule) and
// against the emulator (TestEmulator: a row marked served is answered, a row marked not
// served answers UNIMPLEMENTED or no route). A branch that serves an operation changes
// its row from notServed to served: one line each, so branches merge cleanly.

// HeadOperation is one RPC of HEAD's v2beta1 definitions and its HTTP rule.
type HeadOperation struct {
	// Service is the service's full name; Method the RPC's name.
	Service, Method string
	// Verb and Path are the RPC's google.api.http rule (its first binding).
	Verb, Path string
	// Served says the emulator answers it; otherwise Why says why it does not.
	Served bool
	Why    string
}

func served(service, method, verb, path string) HeadOperation {
	return HeadOperation{Service: service, Method: method, Verb: verb, Path: path, Served: true}
}

func notServed(service, method, verb, path, why string) HeadOperation {
	return HeadOperation{Service: service, Method: method, Verb: verb, Path: path, Why: why}
}

// Why an operation is not served.
const (
	whyNotYet = "in this API's scope, not served yet (issue 35)"
)

// HeadOperations lists every v2beta1 RPC at HEAD, in the definitions' order.
var HeadOperations = []HeadOperation{
	served("chainguard.platform.advisory.v2beta1.SecurityAdvisoryService", "ListDocuments", "GET", "/advisory/v2beta1/documents"),
	served("chainguard.platform.advisory.v2beta1.SecurityAdvisoryService", "ListVulnerabilityMetadata", "GET", "/advisory/v2beta1/metadata"),
	served("chainguard.platform.advisory.v2beta1.SecurityAdvisoryService", "ListResolvedVulnsReports", "GET", "/advisory/v2beta1/images/resolvedVulns"),
	served("chainguard.platform.events.v2beta1.SubscriptionsService", "GetSubscription", "GET", "/events/v2beta1/subscriptions/{uid=**}"),
	served("chainguard.platform.events.v2beta1.SubscriptionsService", "CreateSubscription", "POST", "/events/v2beta1/subscriptions/{parent=**}"),
	served("chainguard.platform.events.v2beta1.SubscriptionsService", "ListSubscriptions", "GET", "/events/v2beta1/subscriptions"),
	served("chainguard.platform.events.v2beta1.SubscriptionsService", "DeleteSubscription", "DELETE", "/events/v2beta1/subscriptions/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "GetAccountAssociation", "GET", "/iam/v2beta1/accountAssociations/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "CreateAccountAssociation", "POST", "/iam/v2beta1/accountAssociations/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "DeleteAccountAssociation", "DELETE", "/iam/v2beta1/accountAssociations/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "ListAccountAssociations", "GET", "/iam/v2beta1/accountAssociations"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "UpdateAccountAssociation", "PATCH", "/iam/v2beta1/accountAssociations/{account_association.uid=**}"),
	served("chainguard.platform.iam.v2beta1.AccountAssociationsService", "CheckAccountAssociation", "POST", "/iam/v2beta1/accountAssociations/{uid=**}:checkAccountAssociation"),
	served("chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService", "GetExternalGroupRoleMapping", "GET", "/iam/v2beta1/externalGroupRoleMappings/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService", "CreateExternalGroupRoleMapping", "POST", "/iam/v2beta1/externalGroupRoleMappings/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService", "DeleteExternalGroupRoleMapping", "DELETE", "/iam/v2beta1/externalGroupRoleMappings/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService", "BatchDeleteExternalGroupRoleMappings", "POST", "/iam/v2beta1/externalGroupRoleMappings:batchDelete"),
	served("chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService", "ListExternalGroupRoleMappings", "GET", "/iam/v2beta1/externalGroupRoleMappings"),
	served("chainguard.platform.iam.v2beta1.GroupInvitesService", "CreateGroupInvite", "POST", "/iam/v2beta1/groupInvites/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.GroupInvitesService", "GetGroupInvite", "GET", "/iam/v2beta1/groupInvites/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.GroupInvitesService", "DeleteGroupInvite", "DELETE", "/iam/v2beta1/groupInvites/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.GroupInvitesService", "ListGroupInvites", "GET", "/iam/v2beta1/groupInvites"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "GetGroup", "GET", "/iam/v2beta1/groups/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "DeleteGroup", "DELETE", "/iam/v2beta1/groups/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "ListGroups", "GET", "/iam/v2beta1/groups"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "CreateGroup", "POST", "/iam/v2beta1/groups/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "UpdateGroup", "PATCH", "/iam/v2beta1/groups/{group.uid=**}"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "LookupGroup", "GET", "/iam/v2beta1/groups:lookupGroup"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "RequestGroupAccess", "POST", "/iam/v2beta1/groups/{group_uid=**}:requestGroupAccess"),
	served("chainguard.platform.iam.v2beta1.GroupsService", "CheckEligibility", "GET", "/iam/v2beta1/groups:checkEligibility"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "CreateIdentity", "POST", "/iam/v2beta1/identities/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "GetIdentity", "GET", "/iam/v2beta1/identities/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "DeleteIdentity", "DELETE", "/iam/v2beta1/identities/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "UpdateIdentity", "PATCH", "/iam/v2beta1/identities/{identity.uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "ListIdentities", "GET", "/iam/v2beta1/identities"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "LookupIdentity", "GET", "/iam/v2beta1/identities:lookupIdentity"),
	served("chainguard.platform.iam.v2beta1.IdentitiesService", "UpdateIdentityMetadata", "PATCH", "/iam/v2beta1/identities:updateIdentityMetadata"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "ListIdentityProviders", "GET", "/iam/v2beta1/identityProviders"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "GetIdentityProvider", "GET", "/iam/v2beta1/identityProviders/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "CreateIdentityProvider", "POST", "/iam/v2beta1/identityProviders/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "UpdateIdentityProvider", "PATCH", "/iam/v2beta1/identityProviders/{identity_provider.uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "DeleteIdentityProvider", "DELETE", "/iam/v2beta1/identityProviders/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "GenerateScimToken", "POST", "/iam/v2beta1/identityProviders/{identity_provider_uid=**}:generateScimToken"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "RegenerateScimToken", "POST", "/iam/v2beta1/identityProviders/{identity_provider_uid=**}:regenerateScimToken"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "RevokeScimToken", "POST", "/iam/v2beta1/identityProviders/{identity_provider_uid=**}:revokeScimToken"),
	served("chainguard.platform.iam.v2beta1.IdentityProvidersService", "SetScimEnabled", "POST", "/iam/v2beta1/identityProviders/{identity_provider_uid=**}:setScimEnabled"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "GetRoleBinding", "GET", "/iam/v2beta1/roleBindings/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "CreateRoleBinding", "POST", "/iam/v2beta1/roleBindings/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "DeleteRoleBinding", "DELETE", "/iam/v2beta1/roleBindings/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "ListRoleBindings", "GET", "/iam/v2beta1/roleBindings"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "BatchCreateRoleBindings", "POST", "/iam/v2beta1/roleBindings:batchCreate"),
	served("chainguard.platform.iam.v2beta1.RoleBindingsService", "UpdateRoleBinding", "PATCH", "/iam/v2beta1/roleBindings/{role_binding.uid=**}"),
	served("chainguard.platform.iam.v2beta1.RolesService", "GetRole", "GET", "/iam/v2beta1/roles/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.RolesService", "ListRoles", "GET", "/iam/v2beta1/roles"),
	served("chainguard.platform.iam.v2beta1.RolesService", "CreateRole", "POST", "/iam/v2beta1/roles/{parent=**}"),
	served("chainguard.platform.iam.v2beta1.RolesService", "UpdateRole", "PATCH", "/iam/v2beta1/roles/{role.uid=**}"),
	served("chainguard.platform.iam.v2beta1.RolesService", "DeleteRole", "DELETE", "/iam/v2beta1/roles/{uid=**}"),
	served("chainguard.platform.iam.v2beta1.TermsService", "AcceptTerms", "POST", "/iam/v2beta1/terms/{group=**}"),
	served("chainguard.platform.iam.v2beta1.TermsService", "ListTermsAcceptances", "GET", "/iam/v2beta1/terms/{group=**}"),
	served("chainguard.platform.libraries.v2beta1.ArtifactsService", "ListArtifacts", "GET", "/libraries/v2beta1/artifacts"),
	served("chainguard.platform.libraries.v2beta1.ArtifactsService", "ListArtifactVersions", "GET", "/libraries/v2beta1/artifacts/{artifact_id=*}/versions"),
	served("chainguard.platform.libraries.v2beta1.ArtifactsService", "GetArtifactCount", "GET", "/libraries/v2beta1/artifacts/count"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "CreateRequestGroup", "POST", "/libraries/v2beta1/requestGroups/{parent=**}"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "ListRequestGroups", "GET", "/libraries/v2beta1/requestGroups"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "GetRequestGroup", "GET", "/libraries/v2beta1/requestGroups/{uid=**}"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "ListRequestGroupItems", "GET", "/libraries/v2beta1/requestGroups/{uid=**}/items"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "SubmitRequestGroup", "POST", "/libraries/v2beta1/requestGroups/{uid=**}:submit"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "UpdateRequestGroup", "PATCH", "/libraries/v2beta1/requestGroups/{request_group.uid=**}"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "RemoveItems", "POST", "/libraries/v2beta1/requestGroups/{uid=**}:removeItems"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "RestoreItems", "POST", "/libraries/v2beta1/requestGroups/{uid=**}:restoreItems"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "DeleteRequestGroup", "DELETE", "/libraries/v2beta1/requestGroups/{uid=**}"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "RefreshCoverage", "POST", "/libraries/v2beta1/requestGroups/{uid=**}:refreshCoverage"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "ListRequestedLibraries", "GET", "/libraries/v2beta1/requestedLibraries"),
	served("chainguard.platform.libraries.v2beta1.RequestGroupsService", "ListRequestedLibraryVersions", "GET", "/libraries/v2beta1/requestedLibraries:versions"),
	served("chainguard.platform.ping.v2beta1.PingService", "Ping", "GET", "/ping/v2beta1/ping"),
	served("chainguard.platform.registry.v2beta1.ImagesService", "GetArchitectures", "GET", "/registry/v2beta1/repos/{repo_uid=**}/digests/{digest}/architectures"),
	served("chainguard.platform.registry.v2beta1.ImagesService", "GetSize", "GET", "/registry/v2beta1/repos/{repo_uid=**}/digests/{digest}/size"),
	served("chainguard.platform.registry.v2beta1.OverlayBindingsService", "CreateOverlayBinding", "POST", "/registry/v2beta1/overlayBindings/{parent=**}"),
	served("chainguard.platform.registry.v2beta1.OverlayBindingsService", "GetOverlayBinding", "GET", "/registry/v2beta1/overlayBindings/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.OverlayBindingsService", "ListOverlayBindings", "GET", "/registry/v2beta1/overlayBindings"),
	served("chainguard.platform.registry.v2beta1.OverlayBindingsService", "DeleteOverlayBinding", "DELETE", "/registry/v2beta1/overlayBindings/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.OverlaysService", "GetOverlay", "GET", "/registry/v2beta1/overlays/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.OverlaysService", "ListOverlays", "GET", "/registry/v2beta1/overlays"),
	served("chainguard.platform.registry.v2beta1.OverlaysService", "CreateOverlay", "POST", "/registry/v2beta1/overlays/{parent=**}"),
	served("chainguard.platform.registry.v2beta1.OverlaysService", "DeleteOverlay", "DELETE", "/registry/v2beta1/overlays/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.ReposService", "GetRepo", "GET", "/registry/v2beta1/repos/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.ReposService", "CreateRepo", "POST", "/registry/v2beta1/repos/{parent=**}"),
	served("chainguard.platform.registry.v2beta1.ReposService", "UpdateRepo", "PATCH", "/registry/v2beta1/repos/{repo.uid=**}"),
	served("chainguard.platform.registry.v2beta1.ReposService", "DeleteRepo", "DELETE", "/registry/v2beta1/repos/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.ReposService", "ListRepos", "GET", "/registry/v2beta1/repos"),
	served("chainguard.platform.registry.v2beta1.ReposService", "GetRepoReadme", "GET", "/registry/v2beta1/repos/{uid=**}/readme"),
	served("chainguard.platform.registry.v2beta1.ReposService", "UpdateRepoReadme", "PATCH", "/registry/v2beta1/repos/{repo_readme.uid=**}/readme"),
	served("chainguard.platform.registry.v2beta1.TagsService", "GetTag", "GET", "/registry/v2beta1/tags/{uid=**}"),
	served("chainguard.platform.registry.v2beta1.TagsService", "ListTags", "GET", "/registry/v2beta1/tags"),
	served("chainguard.platform.registry.v2beta1.TagsService", "CreateTag", "POST", "/registry/v2beta1/tags/{parent=**}"),
	served("chainguard.platform.registry.v2beta1.TagsService", "DeleteTag", "DELETE", "/registry/v2beta1/tags/{uid=**}"),
	served("chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService", "GetAdvisory", "GET", "/vulnerabilities/v2beta1/advisories/{uid=**}"),
	served("chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService", "ListAdvisories", "GET", "/vulnerabilities/v2beta1/advisories"),
}

// HeadGRPCServices are the services whose files at HEAD contract/head/cmd/descriptors
// brings into the gRPC face's descriptor set, replacing v0.1.57's: their served rows are
// served over gRPC too, the methods only HEAD has included. contract/head's
// TestRootsAreHeadGRPCServices holds this list to that command's files.
var HeadGRPCServices = []string{
	"chainguard.platform.advisory.v2beta1.SecurityAdvisoryService",
	"chainguard.platform.events.Subscriptions",
	"chainguard.platform.events.v2beta1.SubscriptionsService",
	"chainguard.platform.iam.v2beta1.AccountAssociationsService",
	"chainguard.platform.iam.v2beta1.ExternalGroupRoleMappingsService",
	"chainguard.platform.iam.v2beta1.GroupInvitesService",
	"chainguard.platform.iam.v2beta1.GroupsService",
	"chainguard.platform.iam.v2beta1.IdentitiesService",
	"chainguard.platform.iam.v2beta1.IdentityProvidersService",
	"chainguard.platform.iam.v2beta1.RoleBindingsService",
	"chainguard.platform.iam.v2beta1.RolesService",
	"chainguard.platform.iam.v2beta1.TermsService",
	"chainguard.platform.libraries.v2beta1.ArtifactsService",
	"chainguard.platform.libraries.v2beta1.RequestGroupsService",
	"chainguard.platform.registry.v2beta1.ImagesService",
	"chainguard.platform.registry.v2beta1.OverlayBindingsService",
	"chainguard.platform.registry.v2beta1.OverlaysService",
	"chainguard.platform.registry.v2beta1.ReposService",
	"chainguard.platform.registry.v2beta1.TagsService",
}

// OtherService is a service of HEAD outside v2beta1 (v1, v2, alpha versions, other
// products), with its number of operations and what the emulator does with it.
type OtherService struct {
	Service    string
	Operations int
	Note       string
}

// Notes on the services outside v2beta1.
const (
	noteV2         = "not served: v2, the next version of this API; the package speaks v2beta1"
	noteAlpha      = "not served: an alpha service outside this API's scope"
	noteIAMv1      = "v1 IAM: the emulator answers the v1 lists the platform's tools read (see the first table); the rest is not served, the package speaks v2beta1"
	noteOutside    = "not served: outside this API's scope (another product of the platform)"
	noteRegistryV1 = "v1 registry: the emulator answers the repository and tag calls the platform's tools make (ListRepos with READMEs, CreateRepo, UpdateRepo, DeleteRepo, ListTags, CreateTag, UpdateTag, DeleteTag), over HTTP (`/registry/v1/repos`, `/registry/v1/tags`) and gRPC; the rest is not served (UNIMPLEMENTED)"
	noteEventsV1   = "v1 event subscriptions: served (create, list, delete), from the store of the v2beta1 `SubscriptionsService`"
	noteSTS        = "served: the token exchange (`/sts/exchange`, GET and POST); the refresh-token exchange is not"
	notePingV1     = "not served: the v2beta1 ping is"
	noteLRO        = "not served: no operation of this API is long-running"
	noteAdvisoryV1 = "not served: v1 of the advisories; the v2beta1 advisories are served"
)

// OtherServices lists HEAD's services outside v2beta1.
var OtherServices = []OtherService{
	{"chainguard.platform.actions.Actions", 1, noteOutside},
	{"chainguard.platform.actions.ActionsAuthorization", 5, noteOutside},
	{"chainguard.platform.actions.v1alpha1.Actions", 6, noteAlpha},
	{"chainguard.platform.advisory.SecurityAdvisory", 3, noteOutside},
	{"chainguard.platform.advisory.v2.SecurityAdvisoryService", 3, noteV2},
	{"chainguard.platform.apk.APK", 2, noteOutside},
	{"chainguard.platform.argos.ArgosDocuments", 4, noteOutside},
	{"chainguard.platform.argos.ArgosOSV", 4, noteOutside},
	{"chainguard.platform.argos.ArgosVulns", 2, noteOutside},
	{"chainguard.platform.auth.Auth", 4, noteOutside},
	{"chainguard.platform.ecosystems.Entitlements", 3, noteOutside},
	{"chainguard.platform.events.Identities", 2, noteOutside},
	{"chainguard.platform.events.Subscriptions", 3, noteEventsV1},
	{"chainguard.platform.events.v2.SubscriptionsService", 4, noteV2},
	{"chainguard.platform.guardener.v1alpha1.GitHubAssociations", 4, noteAlpha},
	{"chainguard.platform.guardener.v1alpha1.Guardener", 6, noteAlpha},
	{"chainguard.platform.iam.ExternalGroupRoleMappings", 5, noteIAMv1},
	{"chainguard.platform.iam.GroupAccountAssociations", 5, noteIAMv1},
	{"chainguard.platform.iam.GroupInvites", 4, noteIAMv1},
	{"chainguard.platform.iam.Groups", 7, noteIAMv1},
	{"chainguard.platform.iam.Identities", 5, noteIAMv1},
	{"chainguard.platform.iam.IdentityProviders", 8, noteIAMv1},
	{"chainguard.platform.iam.RoleBindings", 5, noteIAMv1},
	{"chainguard.platform.iam.Roles", 4, noteIAMv1},
	{"chainguard.platform.iam.Terms", 2, noteIAMv1},
	{"chainguard.platform.iam.v2.AccountAssociationsService", 6, noteV2},
	{"chainguard.platform.iam.v2.ExternalGroupRoleMappingsService", 5, noteV2},
	{"chainguard.platform.iam.v2.GroupInvitesService", 4, noteV2},
	{"chainguard.platform.iam.v2.GroupsService", 8, noteV2},
	{"chainguard.platform.iam.v2.IdentitiesService", 7, noteV2},
	{"chainguard.platform.iam.v2.IdentityProvidersService", 9, noteV2},
	{"chainguard.platform.iam.v2.RoleBindingsService", 6, noteV2},
	{"chainguard.platform.iam.v2.RolesService", 5, noteV2},
	{"chainguard.platform.iam.v2.TermsService", 2, noteV2},
	{"chainguard.platform.libraries.AWSMarketplaceSubscriptions", 5, noteOutside},
	{"chainguard.platform.libraries.Artifacts", 3, noteOutside},
	{"chainguard.platform.libraries.Entitlements", 3, noteOutside},
	{"chainguard.platform.libraries.LibraryPolicies", 4, noteOutside},
	{"chainguard.platform.libraries.LibraryPolicyBindings", 4, noteOutside},
	{"chainguard.platform.libraries.LibraryPolicyBlockEvents", 1, noteOutside},
	{"chainguard.platform.libraries.Malware", 1, noteOutside},
	{"chainguard.platform.libraries.NpmPackages", 2, noteOutside},
	{"chainguard.platform.libraries.ResolutionCache", 4, noteOutside},
	{"chainguard.platform.libraries.v2.ArtifactsService", 3, noteV2},
	{"chainguard.platform.matcher.ImageMatcher", 1, noteOutside},
	{"chainguard.platform.oidc.SecurityTokenService", 2, noteSTS},
	{"chainguard.platform.packages.Entitlements", 1, noteOutside},
	{"chainguard.platform.ping.PingService", 1, notePingV1},
	{"chainguard.platform.ping.v2.PingService", 1, noteV2},
	{"chainguard.platform.policies.v1.Bindings", 4, noteOutside},
	{"chainguard.platform.policies.v1.Decisions", 1, noteOutside},
	{"chainguard.platform.policies.v1.Overrides", 3, noteOutside},
	{"chainguard.platform.policies.v1.Policies", 5, noteOutside},
	{"chainguard.platform.registry.Apko", 2, noteOutside},
	{"chainguard.platform.registry.Charts", 2, noteOutside},
	{"chainguard.platform.registry.Entitlements", 11, noteOutside},
	{"chainguard.platform.registry.Policies", 1, noteOutside},
	{"chainguard.platform.registry.Registry", 34, noteRegistryV1},
	{"chainguard.platform.registry.Vulnerabilities", 4, noteOutside},
	{"chainguard.platform.registry.v2.ImagesService", 2, noteV2},
	{"chainguard.platform.registry.v2.ReposService", 7, noteV2},
	{"chainguard.platform.registry.v2.TagsService", 4, noteV2},
	{"chainguard.platform.skills.Entitlements", 3, noteOutside},
	{"chainguard.platform.skills.v1alpha1.Skills", 3, noteAlpha},
	{"chainguard.platform.skills.v1alpha1.SkillsHarden", 3, noteAlpha},
	{"chainguard.platform.vulnerabilities.v1.Advisories", 7, noteAdvisoryV1},
	{"chainguard.platform.vulnerabilities.v2.AdvisoriesService", 2, noteV2},
	{"google.longrunning.Operations", 5, noteLRO},
}
