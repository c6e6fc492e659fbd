package grpcscenario

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	capabilities "chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"pulumi-irm/contract/internal/grpccall"
)

// iamServices is the part of the official iam.Clients the scenario uses: the gRPC
// clients, or the same client types over restConn.
type iamServices interface {
	GroupsService() iam.GroupsServiceClient
	IdentitiesService() iam.IdentitiesServiceClient
	RolesService() iam.RolesServiceClient
	RoleBindingsService() iam.RoleBindingsServiceClient
	IdentityProvidersService() iam.IdentityProvidersServiceClient
	GroupInvitesService() iam.GroupInvitesServiceClient
	AccountAssociationsService() iam.AccountAssociationsServiceClient
}

// world is what the scenario made, by name, for the checks and the state comparison.
type world struct {
	root, engineering, research, platform string
	viewerRole, customRole                string
	ciBot, deployer                       string
	binding, provider, invite             string
}

// wantCode fails unless err is a gRPC status with that code; it answers the status.
func wantCode(t *testing.T, what string, err error, code codes.Code) *status.Status {
	t.Helper()
	return grpccall.WantCode(t, what, err, code)
}

// must answers a call's value, failing the test on its error (grpccall.Must).
func must[T any](t *testing.T, what string) func(T, error) T { return grpccall.Must[T](t, what) }

func children(uid string) *common.UIDPFilter { return &common.UIDPFilter{ChildrenOf: uid} }

// runScenario builds an organisation tree through the IAM clients and checks each
// answer: the same steps run over gRPC and over HTTP.
func runScenario(t *testing.T, ctx context.Context, c iamServices, rootUID, issuer string) world {
	w := world{root: rootUID}
	groups := c.GroupsService()

	// Groups: a tree, an update through a mask, pages, filters and order.
	w.engineering = must[*iam.Group](t, "create engineering")(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
		Parent: rootUID, Group: &iam.Group{Name: "engineering", Description: "builds things"},
	})).GetUid()
	w.research = must[*iam.Group](t, "create research")(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
		Parent: rootUID, Group: &iam.Group{Name: "research"},
	})).GetUid()
	w.platform = must[*iam.Group](t, "create platform")(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
		Parent: w.engineering, Group: &iam.Group{Name: "platform"},
	})).GetUid()
	if !strings.HasPrefix(w.platform, w.engineering+"/") {
		t.Fatalf("platform %q is not a child of engineering %q", w.platform, w.engineering)
	}
	updated := must[*iam.Group](t, "update engineering")(groups.UpdateGroup(ctx, &iam.UpdateGroupRequest{
		Group:      &iam.Group{Uid: w.engineering, Name: "ignored by the mask", Description: "builds the platform"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}},
	}))
	if updated.GetName() != "engineering" || updated.GetDescription() != "builds the platform" {
		t.Fatalf("update with mask [description]: got name %q description %q", updated.GetName(), updated.GetDescription())
	}
	if !updated.GetUpdateTime().AsTime().After(updated.GetCreateTime().AsTime().Add(-time.Nanosecond)) {
		t.Fatalf("update time %v before create time %v", updated.GetUpdateTime(), updated.GetCreateTime())
	}
	var names []string
	token := ""
	for page := 0; ; page++ {
		list := must[*iam.ListGroupsResponse](t, "list groups")(groups.ListGroups(ctx, &iam.ListGroupsRequest{
			Uidp: children(rootUID), PageSize: 1, PageToken: token, OrderBy: "name desc",
		}))
		if len(list.GetGroups()) > 1 {
			t.Fatalf("page of size 1 holds %d groups", len(list.GetGroups()))
		}
		for _, g := range list.GetGroups() {
			names = append(names, g.GetName())
		}
		if list.GetTotalCount() != 2 {
			t.Fatalf("total count %d, want 2", list.GetTotalCount())
		}
		token = list.GetNextPageToken()
		if token == "" {
			break
		}
		if page > 3 {
			t.Fatal("the pages do not end")
		}
	}
	if strings.Join(names, ",") != "research,engineering" {
		t.Fatalf("children of the root by name desc, one a page: %v", names)
	}
	byName := must[*iam.ListGroupsResponse](t, "list by name")(groups.ListGroups(ctx, &iam.ListGroupsRequest{
		Uidp: &common.UIDPFilter{DescendantsOf: rootUID}, Name: "platform",
	}))
	if len(byName.GetGroups()) != 1 || byName.GetGroups()[0].GetUid() != w.platform {
		t.Fatalf("name filter: %v", byName.GetGroups())
	}

	// A new group's parent by name and by uid suffix (HEAD's CreateGroupRequest.parent).
	for what, parent := range map[string]string{"name": "research", "uid suffix": w.research[strings.LastIndex(w.research, "/")+1:]} {
		under := must[*iam.Group](t, "create under research by "+what)(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
			Parent: parent, Group: &iam.Group{Name: "lab by " + what},
		}))
		if !strings.HasPrefix(under.GetUid(), w.research+"/") {
			t.Fatalf("parent by %s %q: made %q, not a child of research %q", what, parent, under.GetUid(), w.research)
		}
	}
	// A root organisation from an empty parent: its creator owns it and works there at once.
	org := must[*iam.Group](t, "create a root organisation")(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
		Group: &iam.Group{Name: "new-org"},
	}))
	if strings.Contains(org.GetUid(), "/") || len(org.GetUid()) != 40 {
		t.Fatalf("root organisation uid %q", org.GetUid())
	}
	must[*iam.Group](t, "create a team in the new organisation")(groups.CreateGroup(ctx, &iam.CreateGroupRequest{
		Parent: org.GetUid(), Group: &iam.Group{Name: "first-team"},
	}))

	// The error cases carry the API's details as gRPC status details.
	_, err := groups.CreateGroup(ctx, &iam.CreateGroupRequest{Parent: rootUID, Group: &iam.Group{Name: ""}})
	st := wantCode(t, "group without a name", err, codes.InvalidArgument)
	if !hasDetail[*errdetails.ErrorInfo](st) || !hasDetail[*errdetails.BadRequest](st) {
		t.Fatalf("invalid argument without ErrorInfo and BadRequest details: %v", st.Details())
	}
	_, err = groups.DeleteGroup(ctx, &iam.DeleteGroupRequest{Uid: w.engineering})
	st = wantCode(t, "delete a group with a child", err, codes.FailedPrecondition)
	if !hasDetail[*errdetails.PreconditionFailure](st) {
		t.Fatalf("failed precondition without a PreconditionFailure detail: %v", st.Details())
	}
	_, err = groups.GetGroup(ctx, &iam.GetGroupRequest{Uid: rootUID + "/0123456789abcdef"})
	wantCode(t, "get a missing group", err, codes.NotFound)

	// Identities of several kinds.
	ids := c.IdentitiesService()
	w.ciBot = must[*iam.Identity](t, "create ci-bot")(ids.CreateIdentity(ctx, &iam.CreateIdentityRequest{
		Parent: w.engineering,
		Identity: &iam.Identity{Name: "ci-bot", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: issuer},
			Sub: &iam.Identity_ClaimMatch_Subject{Subject: "ci-bot"},
		}}},
	})).GetUid()
	deployer := must[*iam.Identity](t, "create deployer")(ids.CreateIdentity(ctx, &iam.CreateIdentityRequest{
		Parent: w.platform,
		Identity: &iam.Identity{Name: "deployer", Relationship: &iam.Identity_AwsIdentity{AwsIdentity: &iam.Identity_AWSIdentity{
			AwsAccount: "123456789012",
			AwsArn:     &iam.Identity_AWSIdentity_ArnPattern{ArnPattern: "^arn:aws:sts::123456789012:assumed-role/deployer/.*$"},
			AwsUserId:  &iam.Identity_AWSIdentity_UserIdPattern{UserIdPattern: "^AROA[A-Z0-9]+:deploy$"},
		}}},
	}))
	w.deployer = deployer.GetUid()
	if deployer.GetAwsIdentity().GetArnPattern() != "^arn:aws:sts::123456789012:assumed-role/deployer/.*$" || deployer.GetAwsIdentity().GetArn() != "" {
		t.Fatalf("aws identity answered as %v", deployer.GetAwsIdentity())
	}
	renamed := must[*iam.Identity](t, "update ci-bot")(ids.UpdateIdentity(ctx, &iam.UpdateIdentityRequest{
		Identity:   &iam.Identity{Uid: w.ciBot, Description: "runs the pipelines"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}},
	}))
	if renamed.GetName() != "ci-bot" || renamed.GetClaimMatch().GetSubject() != "ci-bot" {
		t.Fatalf("a description update changed more: %v", renamed)
	}
	idList := must[*iam.ListIdentitiesResponse](t, "list identities")(ids.ListIdentities(ctx, &iam.ListIdentitiesRequest{
		Uidp: &common.UIDPFilter{DescendantsOf: w.engineering}, OrderBy: "name",
	}))
	if got := identityNames(idList.GetIdentities()); got != "ci-bot,deployer" {
		t.Fatalf("identities below engineering by name: %s", got)
	}

	// Roles: the built-in viewer, and a custom role of engineering.
	roles := c.RolesService()
	viewer := must[*iam.ListRolesResponse](t, "find viewer")(roles.ListRoles(ctx, &iam.ListRolesRequest{Name: "viewer"}))
	if len(viewer.GetRoles()) != 1 {
		t.Fatalf("roles named viewer: %d", len(viewer.GetRoles()))
	}
	w.viewerRole = viewer.GetRoles()[0].GetUid()
	custom := must[*iam.Role](t, "create a custom role")(roles.CreateRole(ctx, &iam.CreateRoleRequest{
		Parent: w.engineering,
		Role: &iam.Role{Name: "repo-reader", Capabilities: []capabilities.Capability{
			capabilities.Capability_CAP_REPO_LIST, capabilities.Capability_CAP_IAM_GROUPS_LIST,
		}},
	}))
	w.customRole = custom.GetUid()
	widened := must[*iam.Role](t, "update the custom role")(roles.UpdateRole(ctx, &iam.UpdateRoleRequest{
		Role: &iam.Role{Uid: w.customRole, Capabilities: []capabilities.Capability{
			capabilities.Capability_CAP_REPO_LIST, capabilities.Capability_CAP_IAM_GROUPS_LIST, capabilities.Capability_CAP_TAG_LIST,
		}},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"capabilities"}},
	}))
	if len(widened.GetCapabilities()) != 3 || widened.GetName() != "repo-reader" {
		t.Fatalf("custom role after update: %v", widened)
	}
	_, err = roles.CreateRole(ctx, &iam.CreateRoleRequest{Parent: w.engineering, Role: &iam.Role{Name: "empty"}})
	wantCode(t, "a role without capabilities", err, codes.InvalidArgument)

	// Role bindings, with the list filters.
	bindings := c.RoleBindingsService()
	b := must[*iam.RoleBinding](t, "bind ci-bot")(bindings.CreateRoleBinding(ctx, &iam.CreateRoleBindingRequest{
		Parent: w.engineering, RoleBinding: &iam.RoleBinding{IdentityUid: w.ciBot, RoleUid: w.viewerRole},
	}))
	w.binding = b.GetUid()
	if b.GetIdentity().GetName() != "ci-bot" || b.GetRole().GetName() != "viewer" {
		t.Fatalf("binding answered without its names: %v", b)
	}
	must[*iam.RoleBinding](t, "bind deployer")(bindings.CreateRoleBinding(ctx, &iam.CreateRoleBindingRequest{
		Parent: w.platform, RoleBinding: &iam.RoleBinding{IdentityUid: w.deployer, RoleUid: w.customRole},
	}))
	_, err = bindings.CreateRoleBinding(ctx, &iam.CreateRoleBindingRequest{
		Parent: w.engineering, RoleBinding: &iam.RoleBinding{IdentityUid: w.ciBot, RoleUid: w.viewerRole},
	})
	wantCode(t, "the same binding twice", err, codes.AlreadyExists)
	byIdentity := must[*iam.ListRoleBindingsResponse](t, "bindings of ci-bot")(bindings.ListRoleBindings(ctx, &iam.ListRoleBindingsRequest{
		Uidp: &common.UIDPFilter{DescendantsOf: rootUID}, Identity: w.ciBot,
	}))
	if len(byIdentity.GetRoleBindings()) != 1 || byIdentity.GetRoleBindings()[0].GetUid() != w.binding {
		t.Errorf("identity filter: %d bindings", len(byIdentity.GetRoleBindings()))
	}
	byRole := must[*iam.ListRoleBindingsResponse](t, "bindings of the custom role")(bindings.ListRoleBindings(ctx, &iam.ListRoleBindingsRequest{
		Uidp: &common.UIDPFilter{DescendantsOf: rootUID}, Role: w.customRole,
	}))
	if len(byRole.GetRoleBindings()) != 1 || byRole.GetRoleBindings()[0].GetIdentity().GetUid() != w.deployer {
		t.Errorf("role filter: %d bindings", len(byRole.GetRoleBindings()))
	}
	_, err = ids.DeleteIdentity(ctx, &iam.DeleteIdentityRequest{Uid: w.ciBot})
	st = wantCode(t, "delete a bound identity", err, codes.FailedPrecondition)
	if !hasDetail[*errdetails.PreconditionFailure](st) {
		t.Fatalf("no PreconditionFailure detail: %v", st.Details())
	}

	// An identity provider: the secret is write-only.
	idps := c.IdentityProvidersService()
	provider := must[*iam.IdentityProvider](t, "create a provider")(idps.CreateIdentityProvider(ctx, &iam.CreateIdentityProviderRequest{
		Parent: w.engineering,
		IdentityProvider: &iam.IdentityProvider{Name: "corp-sso", DefaultRole: w.viewerRole, Configuration: &iam.IdentityProvider_Oidc{
			Oidc: &iam.IdentityProvider_OIDC{Issuer: "https://sso.example.com", ClientId: "irm", ClientSecret: "not-for-answers", AdditionalScopes: []string{"email"}},
		}},
	}))
	w.provider = provider.GetUid()
	if provider.GetOidc().GetClientSecret() != "" || provider.GetOidc().GetClientId() != "irm" {
		t.Fatalf("provider answered as %v", provider.GetOidc())
	}
	provider = must[*iam.IdentityProvider](t, "update the provider")(idps.UpdateIdentityProvider(ctx, &iam.UpdateIdentityProviderRequest{
		IdentityProvider: &iam.IdentityProvider{Uid: w.provider, Description: "the company's sign-in"},
		UpdateMask:       &fieldmaskpb.FieldMask{Paths: []string{"description"}},
	}))
	if provider.GetDescription() != "the company's sign-in" || provider.GetOidc().GetIssuer() != "https://sso.example.com" {
		t.Fatalf("provider after a description update: %v", provider)
	}

	// An invite: the code is answered once.
	invites := c.GroupInvitesService()
	invite := must[*iam.GroupInvite](t, "create an invite")(invites.CreateGroupInvite(ctx, &iam.CreateGroupInviteRequest{
		Parent: w.research, GroupInvite: &iam.GroupInvite{RoleUid: w.viewerRole, Ttl: durationpb.New(time.Hour), SingleUse: true},
	}))
	w.invite = invite.GetUid()
	if invite.GetCode() == "" || invite.GetKeyId() == "" || !invite.GetSingleUse() {
		t.Fatalf("invite answered as %v", invite)
	}
	if got := invite.GetExpirationTime().AsTime().Sub(time.Now()); got < 50*time.Minute || got > 70*time.Minute {
		t.Fatalf("invite expires in %v, want about an hour", got)
	}
	listed := must[*iam.ListGroupInvitesResponse](t, "list invites")(invites.ListGroupInvites(ctx, &iam.ListGroupInvitesRequest{
		Uidp: children(w.research), KeyId: invite.GetKeyId(),
	}))
	if len(listed.GetGroupInvites()) != 1 || listed.GetGroupInvites()[0].GetCode() != "" {
		t.Fatalf("invites by key id: %v", listed.GetGroupInvites())
	}

	// An account association of research.
	assoc := c.AccountAssociationsService()
	a := must[*iam.AccountAssociation](t, "associate research")(assoc.CreateAccountAssociation(ctx, &iam.CreateAccountAssociationRequest{
		Parent: w.research, AccountAssociation: &iam.AccountAssociation{
			Name: "research-cloud", Amazon: &iam.AccountAssociation_Amazon{Account: "210987654321"},
			Github: &iam.AccountAssociation_GitHub{AppInstallations: map[int64]*iam.AccountAssociation_GitHubAppInstallations{
				12345: {Installations: []*iam.AccountAssociation_GitHubInstallation{{InstallationId: 9007199254740993, Name: "research-org"}}},
			}},
		},
	}))
	if a.GetUid() != w.research || a.GetAmazon().GetAccount() != "210987654321" {
		t.Fatalf("association answered as %v", a)
	}
	if got := a.GetGithub().GetAppInstallations()[12345].GetInstallations(); len(got) != 1 || got[0].GetInstallationId() != 9007199254740993 {
		t.Fatalf("an int64 beyond 2^53 did not survive: %v", got)
	}
	_, err = assoc.CreateAccountAssociation(ctx, &iam.CreateAccountAssociationRequest{
		Parent: w.research, AccountAssociation: &iam.AccountAssociation{Name: "again", Amazon: &iam.AccountAssociation_Amazon{Account: "111122223333"}},
	})
	wantCode(t, "a second association", err, codes.AlreadyExists)

	// The association's check: its Amazon block is configured, its Google one is not.
	ready := must[*iam.CheckAccountAssociationResponse](t, "check amazon")(assoc.CheckAccountAssociation(ctx, &iam.CheckAccountAssociationRequest{
		Uid: w.research, ProviderType: iam.AccountProviderType_ACCOUNT_PROVIDER_TYPE_AMAZON,
	}))
	if ready.GetStatus() != iam.CheckStatus_CHECK_STATUS_READY {
		t.Fatalf("check of a configured amazon block: %v", ready)
	}
	notReady := must[*iam.CheckAccountAssociationResponse](t, "check google")(assoc.CheckAccountAssociation(ctx, &iam.CheckAccountAssociationRequest{
		Uid: w.research, ProviderType: iam.AccountProviderType_ACCOUNT_PROVIDER_TYPE_GOOGLE,
	}))
	if notReady.GetStatus() != iam.CheckStatus_CHECK_STATUS_NOT_READY || notReady.GetReason() == "" {
		t.Fatalf("check of a missing google block: %v", notReady)
	}
	_, err = assoc.CheckAccountAssociation(ctx, &iam.CheckAccountAssociationRequest{Uid: w.research})
	wantCode(t, "a check without a provider type", err, codes.InvalidArgument)

	// LookupIdentity: an identity of exactly this issuer and subject, else a stable flat uid.
	lookup := c.IdentitiesService()
	found := must[*iam.LookupIdentityResponse](t, "lookup ci-bot")(lookup.LookupIdentity(ctx, &iam.LookupIdentityRequest{Issuer: issuer, Subject: "ci-bot"}))
	if found.GetUid() != w.ciBot {
		t.Fatalf("lookup of ci-bot's issuer and subject answered %q, want %q", found.GetUid(), w.ciBot)
	}
	future := must[*iam.LookupIdentityResponse](t, "lookup a future user")(lookup.LookupIdentity(ctx, &iam.LookupIdentityRequest{Issuer: issuer, Subject: "someone-new"}))
	if len(future.GetUid()) != 40 || strings.Contains(future.GetUid(), "/") {
		t.Fatalf("lookup of a future user answered %q, want a flat uid", future.GetUid())
	}

	// The caller's own metadata: the fields set, under the caller's uid.
	meta := must[*iam.IdentityMetadata](t, "update metadata")(lookup.UpdateIdentityMetadata(ctx, &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{Company: "Acme", JobTitle: "SRE"},
	}))
	if meta.GetCompany() != "Acme" || meta.GetJobTitle() != "SRE" || meta.GetUid() == "" {
		t.Fatalf("metadata answered as %v", meta)
	}
	masked := must[*iam.IdentityMetadata](t, "update metadata with a mask")(lookup.UpdateIdentityMetadata(ctx, &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{Company: "ignored", Product: "images"},
		UpdateMask:       &fieldmaskpb.FieldMask{Paths: []string{"product"}},
	}))
	if masked.GetCompany() != "Acme" || masked.GetProduct() != "images" {
		t.Fatalf("metadata with mask [product] answered as %v", masked)
	}

	// The email-domain calls: no emulator token carries a verified email.
	eligible := must[*iam.CheckEligibilityResponse](t, "check eligibility")(groups.CheckEligibility(ctx, &iam.CheckEligibilityRequest{}))
	if eligible.GetEligible() {
		t.Fatal("an emulator token found eligible for the email-domain flows")
	}
	_, err = groups.LookupGroup(ctx, &iam.LookupGroupRequest{})
	wantCode(t, "a group lookup by email domain", err, codes.NotFound)
	_, err = groups.RequestGroupAccess(ctx, &iam.RequestGroupAccessRequest{GroupUid: rootUID})
	wantCode(t, "a group access request", err, codes.NotFound)
	return w
}

func hasDetail[T any](st *status.Status) bool {
	for _, d := range st.Details() {
		if _, ok := d.(T); ok {
			return true
		}
	}
	return false
}

func identityNames(items []*iam.Identity) string {
	names := make([]string, 0, len(items))
	for _, i := range items {
		names = append(names, i.GetName())
	}
	if !sort.StringsAreSorted(names) {
		return "unsorted: " + strings.Join(names, ",")
	}
	return strings.Join(names, ",")
}
