// Package iamscenario drives the IAM calls of the definitions' newer revision
// (chainguard.dev/sdk v0.1.212, the public repository's HEAD) with its generated clients
// over the emulator's gRPC face: the role bindings' BatchCreate, an identity provider's
// SCIM token and switch, the external group role mappings, the terms acceptances, and the
// identity and group calls v0.1.57 already had (LookupIdentity, UpdateIdentityMetadata,
// CheckAccountAssociation, LookupGroup, RequestGroupAccess, CheckEligibility) as HEAD's
// messages carry them; and the same calls over HTTP by their `google.api.http` rules,
// each answer decoded strictly into HEAD's message.
package iamscenario

import (
	"context"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/emulatorproc"
	"pulumi-irm/contract/internal/grpccall"
)

// scimLike is a SCIM token as the emulator issues them.
var scimLike = regexp.MustCompile(`^cgscim_[0-9a-f]{64}$`)

// world is a started emulator, HEAD's IAM clients on its gRPC face, and what every
// scenario needs: the owner's context, the root group, the built-in roles.
type world struct {
	b         emulatorproc.Bootstrap
	ctx       context.Context
	c         iam.Clients
	root      string
	owner     string // the bootstrap owner's identity uid
	viewer    string // the built-in roles' uids
	ownerRole string
}

func start(t *testing.T) *world {
	t.Helper()
	b, conn := scenario.Start(t)
	ctx := scenario.OwnerContext(t, b)
	w := &world{b: b, ctx: ctx, c: clients(conn), root: b.RootGroupUID}
	w.viewer = w.role(t, "viewer")
	w.ownerRole = w.role(t, "owner")
	w.owner = grpccall.Must[*iam.LookupIdentityResponse](t, "look up the bootstrap owner")(w.c.IdentitiesService().LookupIdentity(ctx, &iam.LookupIdentityRequest{
		Issuer: b.Issuer, Subject: "bootstrap-owner",
	})).GetUid()
	if !strings.HasPrefix(w.owner, w.root+"/") {
		t.Fatalf("the bootstrap owner looked up as %q, not an identity of %s", w.owner, w.root)
	}
	return w
}

func clients(conn *grpc.ClientConn) iam.Clients { return iam.NewClientsFromConnection(conn) }

func (w *world) role(t *testing.T, name string) string {
	t.Helper()
	found := grpccall.Must[*iam.ListRolesResponse](t, "find the role "+name)(w.c.RolesService().ListRoles(w.ctx, &iam.ListRolesRequest{Name: name}))
	if len(found.GetRoles()) != 1 {
		t.Fatalf("roles named %s: %v", name, found.GetRoles())
	}
	return found.GetRoles()[0].GetUid()
}

// identity makes a claim-match identity of the emulator's issuer in the root group.
func (w *world) identity(t *testing.T, subject string) string {
	t.Helper()
	return grpccall.Must[*iam.Identity](t, "create identity "+subject)(w.c.IdentitiesService().CreateIdentity(w.ctx, &iam.CreateIdentityRequest{
		Parent: w.root,
		Identity: &iam.Identity{Name: subject, Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: w.b.Issuer},
			Sub: &iam.Identity_ClaimMatch_Subject{Subject: subject},
		}}},
	})).GetUid()
}

// provider makes an OIDC identity provider in the root group.
func (w *world) provider(t *testing.T, name string) string {
	t.Helper()
	return grpccall.Must[*iam.IdentityProvider](t, "create provider "+name)(w.c.IdentityProvidersService().CreateIdentityProvider(w.ctx, &iam.CreateIdentityProviderRequest{
		Parent: w.root,
		IdentityProvider: &iam.IdentityProvider{Name: name, DefaultRole: w.viewer, Configuration: &iam.IdentityProvider_Oidc{
			Oidc: &iam.IdentityProvider_OIDC{Issuer: "https://sso.example.com", ClientId: "irm", ClientSecret: "write-only"},
		}},
	})).GetUid()
}

func (w *world) bindingsOf(t *testing.T, identity string) []*iam.RoleBinding {
	t.Helper()
	return grpccall.Must[*iam.ListRoleBindingsResponse](t, "bindings of "+identity)(w.c.RoleBindingsService().ListRoleBindings(w.ctx, &iam.ListRoleBindingsRequest{
		Uidp: &common.UIDPFilter{DescendantsOf: w.root}, Identity: identity,
	})).GetRoleBindings()
}

// TestBatchCreateRoleBindingsOverGRPC: all bindings of a batch or none.
func TestBatchCreateRoleBindingsOverGRPC(t *testing.T) {
	w := start(t)
	rb := w.c.RoleBindingsService()
	alice, bob := w.identity(t, "alice"), w.identity(t, "bob")

	// The second binding names an identity that does not exist: nothing is made.
	_, err := rb.BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.viewer,
		Requests: []*iam.CreateRoleBindingRequest{
			{RoleBinding: &iam.RoleBinding{IdentityUid: alice}},
			{RoleBinding: &iam.RoleBinding{IdentityUid: w.root + "/0123456789abcdef"}},
		},
	})
	grpccall.WantCode(t, "a batch with a missing identity", err, codes.NotFound)
	if got := w.bindingsOf(t, alice); len(got) != 0 {
		t.Fatalf("a failed batch left bindings: %v", got)
	}
	// The same identity and role twice in one batch.
	_, err = rb.BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.viewer,
		Requests: []*iam.CreateRoleBindingRequest{
			{RoleBinding: &iam.RoleBinding{IdentityUid: alice}},
			{RoleBinding: &iam.RoleBinding{IdentityUid: alice}},
		},
	})
	grpccall.WantCode(t, "a batch binding one pair twice", err, codes.InvalidArgument)
	// A sub-request's parent must be the batch's.
	_, err = rb.BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.viewer,
		Requests: []*iam.CreateRoleBindingRequest{{Parent: w.root + "/0123456789abcdef", RoleBinding: &iam.RoleBinding{IdentityUid: alice}}},
	})
	grpccall.WantCode(t, "a sub-request of another parent", err, codes.InvalidArgument)
	if got := w.bindingsOf(t, alice); len(got) != 0 {
		t.Fatalf("refused batches left bindings: %v", got)
	}

	// The batch's role for one, a role of its own for the other.
	made := grpccall.Must[*iam.BatchCreateRoleBindingsResponse](t, "batch create")(rb.BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.viewer,
		Requests: []*iam.CreateRoleBindingRequest{
			{Parent: w.root, RoleBinding: &iam.RoleBinding{IdentityUid: alice}},
			{RoleBinding: &iam.RoleBinding{IdentityUid: bob, RoleUid: w.viewer}},
		},
	})).GetRoleBindings()
	if len(made) != 2 {
		t.Fatalf("a batch of two made %d", len(made))
	}
	for i, want := range []string{"alice", "bob"} {
		binding := made[i]
		if !strings.HasPrefix(binding.GetUid(), w.root+"/") || binding.GetIdentity().GetName() != want ||
			binding.GetRole().GetUid() != w.viewer || binding.GetRole().GetName() != "viewer" ||
			binding.GetGroup().GetUid() != w.root || binding.GetCreateTime() == nil {
			t.Fatalf("binding %d of the batch: %v", i, binding)
		}
		got := grpccall.Must[*iam.RoleBinding](t, "read the binding back")(rb.GetRoleBinding(w.ctx, &iam.GetRoleBindingRequest{Uid: binding.GetUid()}))
		if got.GetIdentity().GetUid() != binding.GetIdentity().GetUid() {
			t.Fatalf("read back %v, made %v", got, binding)
		}
	}
	// Binding a made pair again fails the whole batch.
	carol := w.identity(t, "carol")
	_, err = rb.BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.viewer,
		Requests: []*iam.CreateRoleBindingRequest{{RoleBinding: &iam.RoleBinding{IdentityUid: carol}}, {RoleBinding: &iam.RoleBinding{IdentityUid: bob}}},
	})
	grpccall.WantCode(t, "a batch repeating a binding", err, codes.AlreadyExists)
	if got := w.bindingsOf(t, carol); len(got) != 0 {
		t.Fatalf("a batch refused for its second binding made its first: %v", got)
	}
}

// TestScimOverGRPC: a provider's SCIM token made, shown, rotated, switched and revoked.
func TestScimOverGRPC(t *testing.T) {
	w := start(t)
	idps := w.c.IdentityProvidersService()
	idp := w.provider(t, "corp-sso")

	first := grpccall.Must[*iam.GenerateScimTokenResponse](t, "generate")(idps.GenerateScimToken(w.ctx, &iam.GenerateScimTokenRequest{IdentityProviderUid: idp}))
	if !scimLike.MatchString(first.GetToken()) || first.GetIdentityProviderUid() != idp || first.GetEtag() == "" ||
		!strings.Contains(first.GetEndpointUrl(), idp) {
		t.Fatalf("generated: uid %q etag %q endpoint %q, token shaped %v", first.GetIdentityProviderUid(), first.GetEtag(), first.GetEndpointUrl(), scimLike.MatchString(first.GetToken()))
	}
	if left := time.Until(first.GetExpireTime().AsTime()); left < 364*24*time.Hour || left > 366*24*time.Hour {
		t.Fatalf("a token without an expiry asked lives %v, want a year", left)
	}
	_, err := idps.GenerateScimToken(w.ctx, &iam.GenerateScimTokenRequest{IdentityProviderUid: idp, NeverExpires: true})
	grpccall.WantCode(t, "a second generate", err, codes.FailedPrecondition)

	scim := grpccall.Must[*iam.IdentityProvider](t, "get the provider")(idps.GetIdentityProvider(w.ctx, &iam.GetIdentityProviderRequest{Uid: idp})).GetScim()
	if scim.GetCredentialState() != iam.IdentityProvider_SCIM_CREDENTIAL_STATE_LIVE || scim.GetEnabled() ||
		scim.GetEtag() != first.GetEtag() || scim.GetEndpointUrl() != first.GetEndpointUrl() ||
		!scim.GetTokenExpireTime().AsTime().Equal(first.GetExpireTime().AsTime()) {
		t.Fatalf("the provider's SCIM status after generate: %v", scim)
	}

	_, err = idps.RegenerateScimToken(w.ctx, &iam.RegenerateScimTokenRequest{IdentityProviderUid: idp, Etag: "stale"})
	grpccall.WantCode(t, "a regenerate with a stale etag", err, codes.Aborted)
	second := grpccall.Must[*iam.RegenerateScimTokenResponse](t, "regenerate")(idps.RegenerateScimToken(w.ctx, &iam.RegenerateScimTokenRequest{
		IdentityProviderUid: idp, Etag: first.GetEtag(), Overlap: durationpb.New(10 * time.Minute), NeverExpires: true,
	}))
	if !scimLike.MatchString(second.GetToken()) || second.GetToken() == first.GetToken() || second.GetEtag() == first.GetEtag() ||
		second.GetRequestedOverlap().AsDuration() != 10*time.Minute || second.GetExpireTime() != nil {
		t.Fatalf("regenerated: etag %q overlap %v expire %v", second.GetEtag(), second.GetRequestedOverlap(), second.GetExpireTime())
	}
	if until := time.Until(second.GetPreviousTokenExpireTime().AsTime()); until < 9*time.Minute || until > 11*time.Minute {
		t.Fatalf("the previous token lives on %v, want the 10 minutes asked", until)
	}
	scim = grpccall.Must[*iam.IdentityProvider](t, "get after regenerate")(idps.GetIdentityProvider(w.ctx, &iam.GetIdentityProviderRequest{Uid: idp})).GetScim()
	if scim.GetCredentialState() != iam.IdentityProvider_SCIM_CREDENTIAL_STATE_ROTATING || scim.GetPreviousTokenExpireTime() == nil {
		t.Fatalf("the provider's SCIM status while rotating: %v", scim)
	}

	// Enabling needs two owners on the organisation: the bootstrap owner is one.
	_, err = idps.SetScimEnabled(w.ctx, &iam.SetScimEnabledRequest{IdentityProviderUid: idp, Enabled: true, Etag: second.GetEtag()})
	grpccall.WantCode(t, "enable with one owner", err, codes.FailedPrecondition)
	grpccall.Must[*iam.BatchCreateRoleBindingsResponse](t, "a second owner")(w.c.RoleBindingsService().BatchCreateRoleBindings(w.ctx, &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.ownerRole,
		Requests: []*iam.CreateRoleBindingRequest{{RoleBinding: &iam.RoleBinding{IdentityUid: w.identity(t, "deputy")}}},
	}))
	on := grpccall.Must[*iam.SetScimEnabledResponse](t, "enable")(idps.SetScimEnabled(w.ctx, &iam.SetScimEnabledRequest{IdentityProviderUid: idp, Enabled: true, Etag: second.GetEtag()}))
	if !on.GetEnabled() || on.GetIdentityProviderUid() != idp || on.GetEtag() == second.GetEtag() {
		t.Fatalf("enabled: %v", on)
	}
	// Disabling is `enabled: false`, which a proto3 message carries as no field at all.
	off := grpccall.Must[*iam.SetScimEnabledResponse](t, "disable")(idps.SetScimEnabled(w.ctx, &iam.SetScimEnabledRequest{IdentityProviderUid: idp, Enabled: false, Etag: on.GetEtag()}))
	if off.GetEnabled() || off.GetEtag() == on.GetEtag() {
		t.Fatalf("disabled: %v", off)
	}
	if got := grpccall.Must[*iam.IdentityProvider](t, "get after disable")(idps.GetIdentityProvider(w.ctx, &iam.GetIdentityProviderRequest{Uid: idp})).GetScim(); got.GetEnabled() || got.GetEtag() != off.GetEtag() {
		t.Fatalf("the provider's SCIM status after disable: %v", got)
	}

	// An overlap of zero, set (an empty Duration on the wire): the old token ends at once.
	third := grpccall.Must[*iam.RegenerateScimTokenResponse](t, "regenerate without overlap")(idps.RegenerateScimToken(w.ctx, &iam.RegenerateScimTokenRequest{
		IdentityProviderUid: idp, Etag: off.GetEtag(), Overlap: durationpb.New(0),
	}))
	if third.GetPreviousTokenExpireTime() != nil || third.GetRequestedOverlap() == nil || third.GetRequestedOverlap().AsDuration() != 0 {
		t.Fatalf("regenerated with a zero overlap: previous %v, overlap %v", third.GetPreviousTokenExpireTime(), third.GetRequestedOverlap())
	}
	if left := time.Until(third.GetExpireTime().AsTime()); left < 364*24*time.Hour || left > 366*24*time.Hour {
		t.Fatalf("a regenerated token without an expiry asked lives %v, want a year", left)
	}

	revoked := grpccall.Must[*iam.RevokeScimTokenResponse](t, "revoke")(idps.RevokeScimToken(w.ctx, &iam.RevokeScimTokenRequest{IdentityProviderUid: idp}))
	if revoked.GetIdentityProviderUid() != idp || revoked.GetEnabled() || revoked.GetRevokeTime() == nil || revoked.GetEtag() == third.GetEtag() {
		t.Fatalf("revoked: %v", revoked)
	}
	scim = grpccall.Must[*iam.IdentityProvider](t, "get after revoke")(idps.GetIdentityProvider(w.ctx, &iam.GetIdentityProviderRequest{Uid: idp})).GetScim()
	if scim.GetCredentialState() != iam.IdentityProvider_SCIM_CREDENTIAL_STATE_REVOKED || scim.GetPreviousTokenExpireTime() != nil {
		t.Fatalf("the provider's SCIM status after revoke: %v", scim)
	}
	// A provider without SCIM: nothing to revoke, nothing to switch.
	plain := w.provider(t, "plain-sso")
	_, err = idps.RevokeScimToken(w.ctx, &iam.RevokeScimTokenRequest{IdentityProviderUid: plain})
	grpccall.WantCode(t, "revoke without a token", err, codes.NotFound)
	_, err = idps.SetScimEnabled(w.ctx, &iam.SetScimEnabledRequest{IdentityProviderUid: plain, Enabled: true, Etag: "x"})
	grpccall.WantCode(t, "enable without a token", err, codes.FailedPrecondition)
}

// TestExternalGroupRoleMappingsOverGRPC: create, get, list, batch delete, delete.
func TestExternalGroupRoleMappingsOverGRPC(t *testing.T) {
	w := start(t)
	m := w.c.ExternalGroupRoleMappingsService()
	idp := w.provider(t, "corp-sso")
	create := func(group string) *iam.ExternalGroupRoleMapping {
		t.Helper()
		return grpccall.Must[*iam.ExternalGroupRoleMapping](t, "map "+group)(m.CreateExternalGroupRoleMapping(w.ctx, &iam.CreateExternalGroupRoleMappingRequest{
			Parent: idp, ExternalGroupRoleMapping: &iam.ExternalGroupRoleMapping{ExternalGroupId: group, RoleUid: w.viewer, Scope: w.root},
		}))
	}
	admins, readers, auditors := create("eng-admins"), create("eng-readers"), create("auditors")
	if !strings.HasPrefix(admins.GetUid(), idp+"/") || admins.GetIdentityProviderUid() != idp || admins.GetExternalGroupId() != "eng-admins" ||
		admins.GetRoleUid() != w.viewer || admins.GetScope() != w.root || admins.GetCreateTime() == nil {
		t.Fatalf("created mapping: %v", admins)
	}
	_, err := m.CreateExternalGroupRoleMapping(w.ctx, &iam.CreateExternalGroupRoleMappingRequest{
		Parent: idp, ExternalGroupRoleMapping: &iam.ExternalGroupRoleMapping{ExternalGroupId: "eng-admins", RoleUid: w.viewer, Scope: w.root},
	})
	grpccall.WantCode(t, "the same mapping twice", err, codes.AlreadyExists)
	team := grpccall.Must[*iam.Group](t, "a team")(w.c.GroupsService().CreateGroup(w.ctx, &iam.CreateGroupRequest{Parent: w.root, Group: &iam.Group{Name: "team"}}))
	_, err = m.CreateExternalGroupRoleMapping(w.ctx, &iam.CreateExternalGroupRoleMappingRequest{
		Parent: idp, ExternalGroupRoleMapping: &iam.ExternalGroupRoleMapping{ExternalGroupId: "team", RoleUid: w.viewer, Scope: team.GetUid()},
	})
	grpccall.WantCode(t, "a scope below the organisation", err, codes.InvalidArgument)

	got := grpccall.Must[*iam.ExternalGroupRoleMapping](t, "get")(m.GetExternalGroupRoleMapping(w.ctx, &iam.GetExternalGroupRoleMappingRequest{Uid: readers.GetUid()}))
	if got.GetExternalGroupId() != "eng-readers" || got.GetUid() != readers.GetUid() {
		t.Fatalf("read back: %v", got)
	}
	list := func() []string {
		t.Helper()
		items := grpccall.Must[*iam.ListExternalGroupRoleMappingsResponse](t, "list")(m.ListExternalGroupRoleMappings(w.ctx, &iam.ListExternalGroupRoleMappingsRequest{IdentityProviderUid: idp})).GetExternalGroupRoleMappings()
		groups := make([]string, 0, len(items))
		for _, item := range items {
			groups = append(groups, item.GetExternalGroupId())
		}
		sort.Strings(groups)
		return groups
	}
	if got := strings.Join(list(), ","); got != "auditors,eng-admins,eng-readers" {
		t.Fatalf("mappings of the provider: %s", got)
	}
	other := w.provider(t, "other-sso")
	if got := grpccall.Must[*iam.ListExternalGroupRoleMappingsResponse](t, "list another provider")(m.ListExternalGroupRoleMappings(w.ctx, &iam.ListExternalGroupRoleMappingsRequest{IdentityProviderUid: other})); len(got.GetExternalGroupRoleMappings()) != 0 {
		t.Fatalf("another provider's mappings: %v", got.GetExternalGroupRoleMappings())
	}

	// A name under another parent refuses the whole batch.
	_, err = m.BatchDeleteExternalGroupRoleMappings(w.ctx, &iam.BatchDeleteExternalGroupRoleMappingsRequest{Parent: other, Names: []string{admins.GetUid()}})
	grpccall.WantCode(t, "a batch delete naming another provider's mapping", err, codes.InvalidArgument)
	_, err = m.BatchDeleteExternalGroupRoleMappings(w.ctx, &iam.BatchDeleteExternalGroupRoleMappingsRequest{Parent: idp, Names: []string{admins.GetUid(), other + "/0123456789abcdef"}})
	grpccall.WantCode(t, "a batch delete with one stray name", err, codes.InvalidArgument)
	if got := len(list()); got != 3 {
		t.Fatalf("a refused batch delete removed mappings: %d left", got)
	}
	deleted := grpccall.Must[*iam.BatchDeleteExternalGroupRoleMappingsResponse](t, "batch delete")(m.BatchDeleteExternalGroupRoleMappings(w.ctx, &iam.BatchDeleteExternalGroupRoleMappingsRequest{
		Parent: idp, Names: []string{admins.GetUid(), auditors.GetUid(), idp + "/0123456789abcdef"},
	}))
	if deleted.GetParent() != idp || len(deleted.GetExternalGroupRoleMappings()) != 2 {
		t.Fatalf("batch delete answered: %v", deleted)
	}
	if got := strings.Join(list(), ","); got != "eng-readers" {
		t.Fatalf("left after the batch delete: %s", got)
	}
	grpccall.Must[any](t, "delete")(m.DeleteExternalGroupRoleMapping(w.ctx, &iam.DeleteExternalGroupRoleMappingRequest{Uid: readers.GetUid()}))
	_, err = m.GetExternalGroupRoleMapping(w.ctx, &iam.GetExternalGroupRoleMappingRequest{Uid: readers.GetUid()})
	grpccall.WantCode(t, "a deleted mapping", err, codes.NotFound)
	// The definitions declare the delete idempotent.
	grpccall.Must[any](t, "delete again")(m.DeleteExternalGroupRoleMapping(w.ctx, &iam.DeleteExternalGroupRoleMappingRequest{Uid: readers.GetUid()}))
	if got := list(); len(got) != 0 {
		t.Fatalf("left after every delete: %v", got)
	}
}

// TestTermsOverGRPC: documents accepted by an organisation and a group below it.
func TestTermsOverGRPC(t *testing.T) {
	w := start(t)
	terms := w.c.TermsService()
	accepted := grpccall.Must[*iam.AcceptTermsResponse](t, "accept")(terms.AcceptTerms(w.ctx, &iam.AcceptTermsRequest{Group: w.root, DocumentIds: []string{"tos-2026", "dpa-2026"}}))
	if accepted.GetGroup() != w.root || strings.Join(accepted.GetDocumentIds(), ",") != "tos-2026,dpa-2026" {
		t.Fatalf("accepted: %v", accepted)
	}
	// Accepting again is no new acceptance.
	grpccall.Must[*iam.AcceptTermsResponse](t, "accept again")(terms.AcceptTerms(w.ctx, &iam.AcceptTermsRequest{Group: w.root, DocumentIds: []string{"tos-2026"}}))
	_, err := terms.AcceptTerms(w.ctx, &iam.AcceptTermsRequest{Group: w.root})
	grpccall.WantCode(t, "accept no document", err, codes.InvalidArgument)

	team := grpccall.Must[*iam.Group](t, "a team")(w.c.GroupsService().CreateGroup(w.ctx, &iam.CreateGroupRequest{Parent: w.root, Group: &iam.Group{Name: "legal"}}))
	grpccall.Must[*iam.AcceptTermsResponse](t, "accept in the team")(terms.AcceptTerms(w.ctx, &iam.AcceptTermsRequest{Group: team.GetUid(), DocumentIds: []string{"team-policy"}}))

	page := grpccall.Must[*iam.ListTermsAcceptancesResponse](t, "list the team's, first page")(terms.ListTermsAcceptances(w.ctx, &iam.ListTermsAcceptancesRequest{Group: team.GetUid(), PageSize: 2}))
	if page.GetTotalCount() != 3 || len(page.GetTermsAcceptances()) != 2 || page.GetNextPageToken() == "" {
		t.Fatalf("first page: total %d, %d items, next %q", page.GetTotalCount(), len(page.GetTermsAcceptances()), page.GetNextPageToken())
	}
	rest := grpccall.Must[*iam.ListTermsAcceptancesResponse](t, "list the team's, next page")(terms.ListTermsAcceptances(w.ctx, &iam.ListTermsAcceptancesRequest{Group: team.GetUid(), PageSize: 2, PageToken: page.GetNextPageToken()}))
	all := append(page.GetTermsAcceptances(), rest.GetTermsAcceptances()...)
	want := [][2]string{{"tos-2026", w.root}, {"dpa-2026", w.root}, {"team-policy", team.GetUid()}}
	if len(all) != len(want) || rest.GetNextPageToken() != "" {
		t.Fatalf("acceptances seen from the team: %v (next %q)", all, rest.GetNextPageToken())
	}
	for i, a := range all {
		if a.GetDocId() != want[i][0] || a.GetOrgUid() != want[i][1] || a.GetAcceptedBy() != w.owner || a.GetCreateTime() == nil {
			t.Fatalf("acceptance %d: %v, want %v by %s", i, a, want[i], w.owner)
		}
	}
	own := grpccall.Must[*iam.ListTermsAcceptancesResponse](t, "list the organisation's")(terms.ListTermsAcceptances(w.ctx, &iam.ListTermsAcceptancesRequest{Group: w.root}))
	if own.GetTotalCount() != 2 || len(own.GetTermsAcceptances()) != 2 {
		t.Fatalf("the organisation's acceptances: %v", own.GetTermsAcceptances())
	}
	_, err = terms.ListTermsAcceptances(w.ctx, &iam.ListTermsAcceptancesRequest{Group: w.root + "/0123456789abcdef"})
	grpccall.WantCode(t, "a missing group's acceptances", err, codes.NotFound)
}

// TestIdentityAndGroupCallsOverGRPC: the calls v0.1.57 had, with HEAD's messages.
func TestIdentityAndGroupCallsOverGRPC(t *testing.T) {
	w := start(t)
	ids := w.c.IdentitiesService()
	bot := w.identity(t, "ci-bot")
	found := grpccall.Must[*iam.LookupIdentityResponse](t, "lookup ci-bot")(ids.LookupIdentity(w.ctx, &iam.LookupIdentityRequest{Issuer: w.b.Issuer, Subject: "ci-bot"}))
	if found.GetUid() != bot {
		t.Fatalf("lookup of ci-bot answered %q, want %q", found.GetUid(), bot)
	}
	future := grpccall.Must[*iam.LookupIdentityResponse](t, "lookup a future user")(ids.LookupIdentity(w.ctx, &iam.LookupIdentityRequest{Issuer: w.b.Issuer, Subject: "someone-new"}))
	again := grpccall.Must[*iam.LookupIdentityResponse](t, "lookup a future user again")(ids.LookupIdentity(w.ctx, &iam.LookupIdentityRequest{Issuer: w.b.Issuer, Subject: "someone-new"}))
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(future.GetUid()) || again.GetUid() != future.GetUid() {
		t.Fatalf("a future user's uid: %q then %q, want one flat uid", future.GetUid(), again.GetUid())
	}
	_, err := ids.LookupIdentity(w.ctx, &iam.LookupIdentityRequest{Issuer: w.b.Issuer})
	grpccall.WantCode(t, "a lookup without a subject", err, codes.InvalidArgument)

	meta := grpccall.Must[*iam.IdentityMetadata](t, "update metadata")(ids.UpdateIdentityMetadata(w.ctx, &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{Company: "Acme", UpdatesOptIn: true, LatestFormSubmitUrl: "https://example.com/form", HubspotUtk: "utk-1", SelfServe: true},
	}))
	if meta.GetUid() != w.owner || meta.GetName() == "" || meta.GetCompany() != "Acme" || !meta.GetUpdatesOptIn() ||
		meta.GetLatestFormSubmitUrl() != "https://example.com/form" || meta.GetHubspotUtk() != "utk-1" || !meta.GetSelfServe() {
		t.Fatalf("metadata answered as %v", meta)
	}
	masked := grpccall.Must[*iam.IdentityMetadata](t, "update metadata with a mask")(ids.UpdateIdentityMetadata(w.ctx, &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{Company: "ignored", JobTitle: "SRE"},
		UpdateMask:       &fieldmaskpb.FieldMask{Paths: []string{"job_title", "updates_opt_in"}},
	}))
	// The mask clears updates_opt_in (not in the message), keeps company, and the
	// ephemeral HubSpot value is not kept.
	if masked.GetCompany() != "Acme" || masked.GetJobTitle() != "SRE" || masked.GetUpdatesOptIn() || masked.GetHubspotUtk() != "" || !masked.GetSelfServe() {
		t.Fatalf("metadata with mask [job_title updates_opt_in] answered as %v", masked)
	}
	_, err = ids.UpdateIdentityMetadata(w.ctx, &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"uid"}},
	})
	grpccall.WantCode(t, "a mask naming an output field", err, codes.InvalidArgument)

	assoc := w.c.AccountAssociationsService()
	grpccall.Must[*iam.AccountAssociation](t, "associate")(assoc.CreateAccountAssociation(w.ctx, &iam.CreateAccountAssociationRequest{
		Parent: w.root, AccountAssociation: &iam.AccountAssociation{Name: "cloud", Google: &iam.AccountAssociation_Google{ProjectId: "acme-prod", ProjectNumber: "123456789012"}},
	}))
	ready := grpccall.Must[*iam.CheckAccountAssociationResponse](t, "check google")(assoc.CheckAccountAssociation(w.ctx, &iam.CheckAccountAssociationRequest{
		Uid: w.root, ProviderType: iam.AccountProviderType_ACCOUNT_PROVIDER_TYPE_GOOGLE,
	}))
	if ready.GetStatus() != iam.CheckStatus_CHECK_STATUS_READY {
		t.Fatalf("check of the configured google block: %v", ready)
	}
	notReady := grpccall.Must[*iam.CheckAccountAssociationResponse](t, "check azure")(assoc.CheckAccountAssociation(w.ctx, &iam.CheckAccountAssociationRequest{
		Uid: w.root, ProviderType: iam.AccountProviderType_ACCOUNT_PROVIDER_TYPE_AZURE,
	}))
	if notReady.GetStatus() != iam.CheckStatus_CHECK_STATUS_NOT_READY || notReady.GetReason() == "" {
		t.Fatalf("check of a missing azure block: %v", notReady)
	}
	_, err = assoc.CheckAccountAssociation(w.ctx, &iam.CheckAccountAssociationRequest{Uid: w.root})
	grpccall.WantCode(t, "a check without a provider type", err, codes.InvalidArgument)

	// The email-domain calls: no emulator token carries a verified email.
	groups := w.c.GroupsService()
	eligible := grpccall.Must[*iam.CheckEligibilityResponse](t, "check eligibility")(groups.CheckEligibility(w.ctx, &iam.CheckEligibilityRequest{}))
	if eligible.GetEligible() {
		t.Fatal("an emulator token found eligible for the email-domain flows")
	}
	_, err = groups.LookupGroup(w.ctx, &iam.LookupGroupRequest{})
	grpccall.WantCode(t, "a group lookup by email domain", err, codes.NotFound)
	_, err = groups.RequestGroupAccess(w.ctx, &iam.RequestGroupAccessRequest{GroupUid: w.root})
	grpccall.WantCode(t, "a group access request", err, codes.NotFound)
}

// TestIAMOverHTTP sends the same calls by their HTTP rules, each body made from HEAD's
// request message (less the fields its path holds), each answer decoded strictly into
// HEAD's response message.
func TestIAMOverHTTP(t *testing.T) {
	w := start(t)
	call := scenario.HTTPCaller(t, w.b)
	dave := w.identity(t, "dave")

	batch := &iam.BatchCreateRoleBindingsResponse{}
	call("POST", "/iam/v2beta1/roleBindings:batchCreate", &iam.BatchCreateRoleBindingsRequest{
		Parent: w.root, RoleUid: w.ownerRole,
		Requests: []*iam.CreateRoleBindingRequest{{RoleBinding: &iam.RoleBinding{IdentityUid: dave}}},
	}, batch)
	if len(batch.GetRoleBindings()) != 1 || batch.GetRoleBindings()[0].GetIdentity().GetUid() != dave || batch.GetRoleBindings()[0].GetRole().GetName() != "owner" {
		t.Fatalf("batch over HTTP: %v", batch)
	}

	idp := w.provider(t, "http-sso")
	at := "/iam/v2beta1/identityProviders/" + idp
	token := &iam.GenerateScimTokenResponse{}
	call("POST", at+":generateScimToken", &iam.GenerateScimTokenRequest{NeverExpires: true}, token)
	if !scimLike.MatchString(token.GetToken()) || token.GetExpireTime() != nil || token.GetIdentityProviderUid() != idp {
		t.Fatalf("generated over HTTP: uid %q expire %v", token.GetIdentityProviderUid(), token.GetExpireTime())
	}
	renewed := &iam.RegenerateScimTokenResponse{}
	call("POST", at+":regenerateScimToken", &iam.RegenerateScimTokenRequest{Etag: token.GetEtag(), Overlap: durationpb.New(0)}, renewed)
	if renewed.GetToken() == token.GetToken() || renewed.GetPreviousTokenExpireTime() != nil || renewed.GetRequestedOverlap().AsDuration() != 0 {
		t.Fatalf("regenerated over HTTP without overlap: previous %v, overlap %v", renewed.GetPreviousTokenExpireTime(), renewed.GetRequestedOverlap())
	}
	on := &iam.SetScimEnabledResponse{}
	call("POST", at+":setScimEnabled", &iam.SetScimEnabledRequest{Enabled: true, Etag: renewed.GetEtag()}, on)
	off := &iam.SetScimEnabledResponse{}
	call("POST", at+":setScimEnabled", &iam.SetScimEnabledRequest{Etag: on.GetEtag()}, off)
	if !on.GetEnabled() || off.GetEnabled() {
		t.Fatalf("switched over HTTP: on %v, off %v", on, off)
	}
	revoked := &iam.RevokeScimTokenResponse{}
	call("POST", at+":revokeScimToken", &iam.RevokeScimTokenRequest{}, revoked)
	got := &iam.IdentityProvider{}
	call("GET", at, nil, got)
	if got.GetScim().GetCredentialState() != iam.IdentityProvider_SCIM_CREDENTIAL_STATE_REVOKED || got.GetScim().GetEtag() != revoked.GetEtag() {
		t.Fatalf("the provider's SCIM status over HTTP: %v", got.GetScim())
	}

	mapping := &iam.ExternalGroupRoleMapping{}
	call("POST", "/iam/v2beta1/externalGroupRoleMappings/"+idp, &iam.ExternalGroupRoleMapping{ExternalGroupId: "ops", RoleUid: w.viewer, Scope: w.root}, mapping)
	read := &iam.ExternalGroupRoleMapping{}
	call("GET", "/iam/v2beta1/externalGroupRoleMappings/"+mapping.GetUid(), nil, read)
	listed := &iam.ListExternalGroupRoleMappingsResponse{}
	call("GET", "/iam/v2beta1/externalGroupRoleMappings?identity_provider_uid="+idp, nil, listed)
	if read.GetExternalGroupId() != "ops" || len(listed.GetExternalGroupRoleMappings()) != 1 || listed.GetTotalCount() != 1 {
		t.Fatalf("mapping over HTTP: read %v, listed %v", read, listed)
	}
	removed := &iam.BatchDeleteExternalGroupRoleMappingsResponse{}
	call("POST", "/iam/v2beta1/externalGroupRoleMappings:batchDelete", &iam.BatchDeleteExternalGroupRoleMappingsRequest{Parent: idp, Names: []string{mapping.GetUid()}}, removed)
	if len(removed.GetExternalGroupRoleMappings()) != 1 || removed.GetExternalGroupRoleMappings()[0].GetUid() != mapping.GetUid() {
		t.Fatalf("batch delete over HTTP: %v", removed)
	}
	call("DELETE", "/iam/v2beta1/externalGroupRoleMappings/"+mapping.GetUid(), nil, &iam.ExternalGroupRoleMapping{})

	accepted := &iam.AcceptTermsResponse{}
	call("POST", "/iam/v2beta1/terms/"+w.root, &iam.AcceptTermsRequest{DocumentIds: []string{"tos-2026"}}, accepted)
	terms := &iam.ListTermsAcceptancesResponse{}
	call("GET", "/iam/v2beta1/terms/"+w.root, nil, terms)
	if accepted.GetGroup() != w.root || len(terms.GetTermsAcceptances()) != 1 || terms.GetTermsAcceptances()[0].GetAcceptedBy() != w.owner {
		t.Fatalf("terms over HTTP: accepted %v, listed %v", accepted, terms)
	}

	looked := &iam.LookupIdentityResponse{}
	call("GET", "/iam/v2beta1/identities:lookupIdentity?"+url.Values{"issuer": {w.b.Issuer}, "subject": {"dave"}}.Encode(), nil, looked)
	if looked.GetUid() != dave {
		t.Fatalf("lookup over HTTP: %q, want %q", looked.GetUid(), dave)
	}
	meta := &iam.IdentityMetadata{}
	call("PATCH", "/iam/v2beta1/identities:updateIdentityMetadata", &iam.UpdateIdentityMetadataRequest{
		IdentityMetadata: &iam.IdentityMetadata{Product: "images", UtmSource: "docs"},
		UpdateMask:       &fieldmaskpb.FieldMask{Paths: []string{"product", "utm_source"}},
	}, meta)
	if meta.GetUid() != w.owner || meta.GetProduct() != "images" || meta.GetUtmSource() != "docs" {
		t.Fatalf("metadata over HTTP: %v", meta)
	}
	call("POST", "/iam/v2beta1/accountAssociations/"+w.root, &iam.AccountAssociation{Name: "cloud", Amazon: &iam.AccountAssociation_Amazon{Account: "123456789012"}}, &iam.AccountAssociation{})
	check := &iam.CheckAccountAssociationResponse{}
	call("POST", "/iam/v2beta1/accountAssociations/"+w.root+":checkAccountAssociation", &iam.CheckAccountAssociationRequest{ProviderType: iam.AccountProviderType_ACCOUNT_PROVIDER_TYPE_AMAZON}, check)
	if check.GetStatus() != iam.CheckStatus_CHECK_STATUS_READY {
		t.Fatalf("check over HTTP of the configured amazon block: %v", check)
	}
	eligible := &iam.CheckEligibilityResponse{}
	call("GET", "/iam/v2beta1/groups:checkEligibility", nil, eligible)
	if eligible.GetEligible() {
		t.Fatal("eligible over HTTP")
	}
}
