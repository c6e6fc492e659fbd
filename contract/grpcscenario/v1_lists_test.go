package grpcscenario

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"chainguard.dev/sdk/auth"
	capabilities "chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	iamv1 "chainguard.dev/sdk/proto/platform/iam/v1"
	"chainguard.dev/sdk/sts"

	"pulumi-irm/contract/internal/emulatorproc"
)

// v1Lists are the official v1 clients of the lists the platform's tools still call,
// over one connection (gRPC, or restConn for the v1 HTTP routes).
type v1Lists struct {
	roles    iamv1.RolesClient
	bindings iamv1.RoleBindingsClient
	idps     iamv1.IdentityProvidersClient
	invites  iamv1.GroupInvitesClient
	assoc    iamv1.GroupAccountAssociationsClient
}

func v1ListsOver(cc grpc.ClientConnInterface) v1Lists {
	return v1Lists{
		roles:    iamv1.NewRolesClient(cc),
		bindings: iamv1.NewRoleBindingsClient(cc),
		idps:     iamv1.NewIdentityProvidersClient(cc),
		invites:  iamv1.NewGroupInvitesClient(cc),
		assoc:    iamv1.NewGroupAccountAssociationsClient(cc),
	}
}

// both runs one v1 List over gRPC and over HTTP and fails unless the answers are equal;
// it answers the gRPC one.
func both[F proto.Message, L proto.Message](t *testing.T, what string, grpcCall, httpCall func(context.Context, F, ...grpc.CallOption) (L, error), ctx context.Context, filter F) L {
	t.Helper()
	overGRPC := must[L](t, what+" over gRPC")(grpcCall(ctx, filter))
	overHTTP := must[L](t, what+" over HTTP")(httpCall(ctx, filter))
	if !proto.Equal(overGRPC, overHTTP) {
		t.Fatalf("%s: gRPC and HTTP differ:\n%v\n%v", what, overGRPC, overHTTP)
	}
	return overGRPC
}

type v1Pair struct{ g, h v1Lists }

func (p v1Pair) roles(t *testing.T, ctx context.Context, what string, f *iamv1.RoleFilter) []*iamv1.Role {
	t.Helper()
	return both(t, what, p.g.roles.List, p.h.roles.List, ctx, f).GetItems()
}

func (p v1Pair) bindings(t *testing.T, ctx context.Context, what string, f *iamv1.RoleBindingFilter) []*iamv1.RoleBindingList_Binding {
	t.Helper()
	return both(t, what, p.g.bindings.List, p.h.bindings.List, ctx, f).GetItems()
}

func (p v1Pair) idps(t *testing.T, ctx context.Context, what string, f *iamv1.IdentityProviderFilter) []*iamv1.IdentityProvider {
	t.Helper()
	return both(t, what, p.g.idps.List, p.h.idps.List, ctx, f).GetItems()
}

func (p v1Pair) invites(t *testing.T, ctx context.Context, what string, f *iamv1.GroupInviteFilter) []*iamv1.StoredGroupInvite {
	t.Helper()
	return both(t, what, p.g.invites.List, p.h.invites.List, ctx, f).GetItems()
}

func (p v1Pair) assoc(t *testing.T, ctx context.Context, what string, f *iamv1.AccountAssociationsFilter) []*iamv1.AccountAssociations {
	t.Helper()
	return both(t, what, p.g.assoc.List, p.h.assoc.List, ctx, f).GetItems()
}

func pairFor(t *testing.T, b bootstrap, token string) v1Pair {
	t.Helper()
	var options []grpc.DialOption
	if token != "" {
		options = append(options, grpc.WithPerRPCCredentials(auth.NewFromToken(context.Background(), token, false)))
	}
	conn := emulatorproc.Dial(t, b, options...)
	return v1Pair{g: v1ListsOver(conn), h: v1ListsOver(&restConn{base: b.APIURL, token: token})}
}

type ided interface{ GetId() string }

func idsOf[T ided](items []T) string {
	out := make([]string, 0, len(items))
	for _, item := range items {
		out = append(out, item.GetId())
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func sorted(uids ...string) string {
	sort.Strings(uids)
	return strings.Join(uids, ",")
}

// TestV1Lists checks the v1 lists the platform's tools use to find an object or to
// check that it is gone, with their filters, over gRPC and over the v1 HTTP routes,
// for the owner and for a viewer of one group (who sees what the v2 lists show it).
func TestV1Lists(t *testing.T) {
	b := startEmulator(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := platformClients(t, ctx, b, b.Token)
	w := runScenario(t, ctx, c.IAM(), b.RootGroupUID, b.Issuer)
	p := pairFor(t, b, b.Token)
	// The v1 clients as the platform's CLI builds them answer like the bare connection.
	cli, err := iamv1.NewClients(ctx, b.GRPCURL, b.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()

	t.Run("roles", func(t *testing.T) {
		viewer := p.roles(t, ctx, "roles named viewer", &iamv1.RoleFilter{Name: "viewer"})
		if idsOf(viewer) != w.viewerRole || len(viewer[0].GetCapabilities()) == 0 {
			t.Fatalf("roles named viewer: %v", viewer)
		}
		again := must[*iamv1.RoleList](t, "the CLI's client")(cli.Roles().List(ctx, &iamv1.RoleFilter{Name: "viewer"}))
		if !proto.Equal(again.GetItems()[0], viewer[0]) {
			t.Fatalf("the CLI's client answered %v", again)
		}
		custom := p.roles(t, ctx, "roles of engineering", &iamv1.RoleFilter{Parent: w.engineering})
		if idsOf(custom) != w.customRole || custom[0].GetName() != "repo-reader" || len(custom[0].GetCapabilities()) != 3 {
			t.Fatalf("roles whose parent is engineering: %v", custom)
		}
		for _, role := range p.roles(t, ctx, "roles at the root", &iamv1.RoleFilter{Parent: "/"}) {
			if strings.Contains(role.GetId(), "/") {
				t.Fatalf("parent / answered the custom role %s", role.GetId())
			}
		}
		if got := idsOf(p.roles(t, ctx, "role by id", &iamv1.RoleFilter{Id: w.customRole})); got != w.customRole {
			t.Fatalf("role by id: %s", got)
		}
		if got := idsOf(p.roles(t, ctx, "roles below research", &iamv1.RoleFilter{Uidp: &common.UIDPFilter{ChildrenOf: w.research}})); got != "" {
			t.Fatalf("roles of research: %s", got)
		}
		_, err := p.g.roles.List(ctx, &iamv1.RoleFilter{Parent: "engineering"})
		wantCode(t, "a parent that is not a uid", err, codes.InvalidArgument)
		// Gone: a role made and deleted over v2 is no longer listed by its id.
		gone := must[*iam.Role](t, "a short-lived role")(c.IAM().RolesService().CreateRole(ctx, &iam.CreateRoleRequest{
			Parent: w.research, Role: &iam.Role{Name: "short-lived", Capabilities: []capabilities.Capability{capabilities.Capability_CAP_REPO_LIST}},
		})).GetUid()
		if got := idsOf(p.roles(t, ctx, "the role by id", &iamv1.RoleFilter{Id: gone})); got != gone {
			t.Fatalf("the new role by id: %s", got)
		}
		must[*emptypb.Empty](t, "delete the role")(c.IAM().RolesService().DeleteRole(ctx, &iam.DeleteRoleRequest{Uid: gone}))
		if got := idsOf(p.roles(t, ctx, "the deleted role by id", &iamv1.RoleFilter{Id: gone})); got != "" {
			t.Fatalf("a deleted role is still listed: %s", got)
		}
	})

	t.Run("role bindings", func(t *testing.T) {
		one := p.bindings(t, ctx, "binding by id", &iamv1.RoleBindingFilter{Id: w.binding})
		if len(one) != 1 {
			t.Fatalf("binding by id: %s", idsOf(one))
		}
		got := one[0]
		if got.GetId() != w.binding || got.GetIdentity() != w.ciBot || got.GetGroup().GetId() != w.engineering ||
			got.GetGroup().GetName() != "engineering" || got.GetRole().GetId() != w.viewerRole ||
			got.GetRole().GetName() != "viewer" || len(got.GetRole().GetCapabilities()) == 0 ||
			got.GetClaimMatchIssuer() != b.Issuer || got.GetClaimMatchSubject() != "ci-bot" || got.GetCreatedAt() == nil {
			t.Fatalf("binding in the v1 shape: %v", got)
		}
		below := &common.UIDPFilter{DescendantsOf: b.RootGroupUID}
		v2All := must[*iam.ListRoleBindingsResponse](t, "v2 bindings")(c.IAM().RoleBindingsService().ListRoleBindings(ctx, &iam.ListRoleBindingsRequest{Uidp: below, PageSize: 100}))
		var want []string
		for _, r := range v2All.GetRoleBindings() {
			want = append(want, r.GetUid())
		}
		all := idsOf(p.bindings(t, ctx, "bindings below the root", &iamv1.RoleBindingFilter{Uidp: below}))
		if all != sorted(want...) || !strings.Contains(all, w.binding) || len(want) < 2 {
			t.Fatalf("bindings below the root: %s, v2 shows %v", all, want)
		}
		platform := p.bindings(t, ctx, "bindings of platform", &iamv1.RoleBindingFilter{Uidp: &common.UIDPFilter{ChildrenOf: w.platform}})
		if len(platform) != 1 || platform[0].GetIdentity() != w.deployer || platform[0].GetRole().GetId() != w.customRole {
			t.Fatalf("bindings of platform: %s", idsOf(platform))
		}
		must[*emptypb.Empty](t, "unbind ci-bot")(c.IAM().RoleBindingsService().DeleteRoleBinding(ctx, &iam.DeleteRoleBindingRequest{Uid: w.binding}))
		if got := p.bindings(t, ctx, "the deleted binding by id", &iamv1.RoleBindingFilter{Id: w.binding}); len(got) != 0 {
			t.Fatalf("a deleted binding is still listed: %v", got)
		}
	})

	t.Run("identity providers", func(t *testing.T) {
		one := p.idps(t, ctx, "provider by id", &iamv1.IdentityProviderFilter{Id: w.provider})
		if len(one) != 1 || one[0].GetName() != "corp-sso" || one[0].GetDefaultRole() != w.viewerRole ||
			one[0].GetOidc().GetIssuer() != "https://sso.example.com" || one[0].GetOidc().GetClientId() != "irm" ||
			one[0].GetOidc().GetClientSecret() != "" || strings.Join(one[0].GetOidc().GetAdditionalScopes(), ",") != "email" {
			t.Fatalf("provider in the v1 shape: %v", one)
		}
		if got := idsOf(p.idps(t, ctx, "providers by name", &iamv1.IdentityProviderFilter{Name: "corp-sso"})); got != w.provider {
			t.Fatalf("providers by name: %s", got)
		}
		if got := idsOf(p.idps(t, ctx, "providers of research", &iamv1.IdentityProviderFilter{Uidp: &common.UIDPFilter{ChildrenOf: w.research}})); got != "" {
			t.Fatalf("providers of research: %s", got)
		}
		must[*emptypb.Empty](t, "delete the provider")(c.IAM().IdentityProvidersService().DeleteIdentityProvider(ctx, &iam.DeleteIdentityProviderRequest{Uid: w.provider}))
		if got := p.idps(t, ctx, "the deleted provider by id", &iamv1.IdentityProviderFilter{Id: w.provider}); len(got) != 0 {
			t.Fatalf("a deleted provider is still listed: %v", got)
		}
	})

	t.Run("group invites", func(t *testing.T) {
		one := p.invites(t, ctx, "invites of research", &iamv1.GroupInviteFilter{Group: w.research})
		if len(one) != 1 || one[0].GetId() != w.invite || one[0].GetKeyId() == "" || !one[0].GetSingleUse() ||
			one[0].GetRole().GetId() != w.viewerRole || one[0].GetRole().GetName() != "viewer" ||
			one[0].GetExpiration() == nil || one[0].GetCreatedAt() == nil {
			t.Fatalf("invite in the v1 shape: %v", one)
		}
		if got := idsOf(p.invites(t, ctx, "invites by key id", &iamv1.GroupInviteFilter{KeyId: one[0].GetKeyId()})); got != w.invite {
			t.Fatalf("invites by key id: %s", got)
		}
		if got := idsOf(p.invites(t, ctx, "invites rooted under the root", &iamv1.GroupInviteFilter{Group: b.RootGroupUID})); got != w.invite {
			t.Fatalf("invites rooted under the root: %s", got)
		}
		if got := idsOf(p.invites(t, ctx, "invites of engineering", &iamv1.GroupInviteFilter{Group: w.engineering})); got != "" {
			t.Fatalf("invites of engineering: %s", got)
		}
		if got := idsOf(p.invites(t, ctx, "invites by another key id", &iamv1.GroupInviteFilter{KeyId: "no-such-key"})); got != "" {
			t.Fatalf("invites by another key id: %s", got)
		}
		must[*emptypb.Empty](t, "delete the invite")(c.IAM().GroupInvitesService().DeleteGroupInvite(ctx, &iam.DeleteGroupInviteRequest{Uid: w.invite}))
		if got := p.invites(t, ctx, "the deleted invite by id", &iamv1.GroupInviteFilter{Id: w.invite}); len(got) != 0 {
			t.Fatalf("a deleted invite is still listed: %v", got)
		}
	})

	t.Run("account associations", func(t *testing.T) {
		one := p.assoc(t, ctx, "association of research", &iamv1.AccountAssociationsFilter{Group: w.research})
		if len(one) != 1 || one[0].GetGroup() != w.research || one[0].GetName() != "research-cloud" ||
			one[0].GetAmazon().GetAccount() != "210987654321" {
			t.Fatalf("association in the v1 shape: %v", one)
		}
		if got := one[0].GetGithub().GetAppInstallations()[12345].GetInstallations(); len(got) != 1 || got[0].GetInstallationId() != 9007199254740993 || got[0].GetName() != "research-org" {
			t.Fatalf("association's installations: %v", got)
		}
		if got := p.assoc(t, ctx, "associations by name", &iamv1.AccountAssociationsFilter{Name: "research-cloud"}); len(got) != 1 || got[0].GetGroup() != w.research {
			t.Fatalf("associations by name: %v", got)
		}
		if got := p.assoc(t, ctx, "association of engineering", &iamv1.AccountAssociationsFilter{Group: w.engineering}); len(got) != 0 {
			t.Fatalf("association of engineering: %v", got)
		}
		must[*emptypb.Empty](t, "delete the association")(c.IAM().AccountAssociationsService().DeleteAccountAssociation(ctx, &iam.DeleteAccountAssociationRequest{Uid: w.research}))
		if got := p.assoc(t, ctx, "the deleted association", &iamv1.AccountAssociationsFilter{Group: w.research}); len(got) != 0 {
			t.Fatalf("a deleted association is still listed: %v", got)
		}
	})

	t.Run("a viewer of engineering sees what the v2 lists show it", func(t *testing.T) {
		exchanged, err := sts.New(b.AuthURL, b.APIURL, sts.WithIdentity(w.ciBot)).Exchange(ctx, oidcToken(t, b, "ci-bot"))
		if err != nil {
			t.Fatal(err)
		}
		// ci-bot is a viewer of engineering (bound again if a subtest above unbound it).
		_, err = c.IAM().RoleBindingsService().CreateRoleBinding(ctx, &iam.CreateRoleBindingRequest{
			Parent: w.engineering, RoleBinding: &iam.RoleBinding{IdentityUid: w.ciBot, RoleUid: w.viewerRole},
		})
		if err != nil {
			wantCode(t, "bind ci-bot as a viewer of engineering", err, codes.AlreadyExists)
		}
		// A fresh invite and association in research, which ci-bot may not list.
		must[*iam.GroupInvite](t, "invite to research")(c.IAM().GroupInvitesService().CreateGroupInvite(ctx, &iam.CreateGroupInviteRequest{
			Parent: w.research, GroupInvite: &iam.GroupInvite{RoleUid: w.viewerRole, Ttl: durationpb.New(time.Hour)},
		}))
		v := pairFor(t, b, exchanged.AccessToken)
		as := platformClients(t, ctx, b, exchanged.AccessToken)
		v2 := as.IAM()
		below := &common.UIDPFilter{DescendantsOf: b.RootGroupUID}

		v2Roles := must[*iam.ListRolesResponse](t, "v2 roles")(v2.RolesService().ListRoles(ctx, &iam.ListRolesRequest{Uidp: &common.UIDPFilter{ChildrenOf: w.engineering}}))
		var want []string
		for _, r := range v2Roles.GetRoles() {
			want = append(want, r.GetUid())
		}
		if got := idsOf(v.roles(t, ctx, "ci-bot's roles of engineering", &iamv1.RoleFilter{Parent: w.engineering})); got != sorted(want...) || got != w.customRole {
			t.Fatalf("ci-bot's roles of engineering: %s, v2 shows %v", got, want)
		}

		v2Bindings := must[*iam.ListRoleBindingsResponse](t, "v2 bindings")(v2.RoleBindingsService().ListRoleBindings(ctx, &iam.ListRoleBindingsRequest{Uidp: below}))
		want = want[:0]
		for _, r := range v2Bindings.GetRoleBindings() {
			want = append(want, r.GetUid())
		}
		if got := idsOf(v.bindings(t, ctx, "ci-bot's bindings", &iamv1.RoleBindingFilter{Uidp: below})); got != sorted(want...) || len(want) != 2 {
			t.Fatalf("ci-bot's bindings: %s, v2 shows %v", got, want)
		}

		if got := v.invites(t, ctx, "ci-bot's invites", &iamv1.GroupInviteFilter{Group: b.RootGroupUID}); len(got) != 0 {
			t.Fatalf("ci-bot lists research's invites: %v", got)
		}
		v2Invites := must[*iam.ListGroupInvitesResponse](t, "v2 invites")(v2.GroupInvitesService().ListGroupInvites(ctx, &iam.ListGroupInvitesRequest{Uidp: below}))
		if len(v2Invites.GetGroupInvites()) != 0 {
			t.Fatalf("v2 shows ci-bot invites: %v", v2Invites.GetGroupInvites())
		}
		// The owner sees that invite: the viewer's empty answer is the access rule.
		if got := p.invites(t, ctx, "the owner's invites", &iamv1.GroupInviteFilter{Group: w.research}); len(got) != 1 {
			t.Fatalf("the owner's invites of research: %v", got)
		}

		// No token: UNAUTHENTICATED, as the v2 lists.
		anon := pairFor(t, b, "")
		_, err = anon.g.roles.List(ctx, &iamv1.RoleFilter{})
		wantCode(t, "v1 roles without a token", err, codes.Unauthenticated)
		_, err = anon.h.roles.List(ctx, &iamv1.RoleFilter{})
		wantCode(t, "v1 roles without a token over HTTP", err, codes.Unauthenticated)
	})
}
