package grpcscenario

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"

	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	ping "chainguard.dev/sdk/proto/chainguard/platform/ping/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vuln "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	iamv1 "chainguard.dev/sdk/proto/platform/iam/v1"
	"chainguard.dev/sdk/sts"

	"pulumi-irm/contract/internal/emulatorproc"
)

// TestGRPCScenario drives the emulator with the platform's own Go clients over gRPC.
func TestGRPCScenario(t *testing.T) {
	b := startEmulator(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The platform's clients send the token as the whole authorization value.
	c := platformClients(t, ctx, b, b.Token)
	w := runScenario(t, ctx, c.IAM(), b.RootGroupUID, b.Issuer)

	t.Run("exchange", func(t *testing.T) {
		// ci-bot (viewer on engineering) is assumed with a token of the test issuer.
		exchanged, err := sts.New(b.AuthURL, b.APIURL, sts.WithIdentity(w.ciBot)).Exchange(ctx, oidcToken(t, b, "ci-bot"))
		if err != nil {
			t.Fatal(err)
		}
		as := platformClients(t, ctx, b, "Bearer "+exchanged.AccessToken)
		seen, err := as.IAM().GroupsService().ListGroups(ctx, &iam.ListGroupsRequest{Uidp: &common.UIDPFilter{DescendantsOf: b.RootGroupUID}})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(seen.GetGroups()); got != 2 {
			t.Fatalf("ci-bot sees %d groups, want engineering and platform", got)
		}
		_, err = as.IAM().GroupsService().CreateGroup(ctx, &iam.CreateGroupRequest{Parent: w.engineering, Group: &iam.Group{Name: "nope"}})
		wantCode(t, "a viewer creates a group", err, codes.PermissionDenied)
		_, err = sts.New(b.AuthURL, b.APIURL, sts.WithIdentity(w.deployer)).Exchange(ctx, oidcToken(t, b, "ci-bot"))
		wantCode(t, "a token the identity does not accept", err, codes.PermissionDenied)
	})

	t.Run("unauthenticated", func(t *testing.T) {
		anon := platformClients(t, ctx, b, "")
		_, err := anon.IAM().GroupsService().ListGroups(ctx, &iam.ListGroupsRequest{})
		wantCode(t, "no token", err, codes.Unauthenticated)
	})

	t.Run("registry and advisories", func(t *testing.T) {
		repos := must[*registry.ListReposResponse](t, "list repos")(c.Registry().ReposService().ListRepos(ctx, &registry.ListReposRequest{
			Uidp: &common.UIDPFilter{ChildrenOf: b.RootGroupUID}, PageSize: 2, OrderBy: "name",
		}))
		if len(repos.GetRepos()) != 2 || repos.GetNextPageToken() == "" {
			t.Fatalf("first page of two repos: %d, next %q", len(repos.GetRepos()), repos.GetNextPageToken())
		}
		first := repos.GetRepos()[0]
		got := must[*registry.Repo](t, "get repo")(c.Registry().ReposService().GetRepo(ctx, &registry.GetRepoRequest{Uid: first.GetUid()}))
		if got.GetName() != first.GetName() {
			t.Fatalf("get %s answered %s", first.GetName(), got.GetName())
		}
		tags := must[*registry.ListTagsResponse](t, "list tags")(c.Registry().TagsService().ListTags(ctx, &registry.ListTagsRequest{
			Uidp: &common.UIDPFilter{ChildrenOf: first.GetUid()},
		}))
		for _, tag := range tags.GetTags() {
			if !strings.HasPrefix(tag.GetUid(), first.GetUid()+"/") {
				t.Fatalf("tag %s is not a child of %s", tag.GetUid(), first.GetUid())
			}
		}
		advisories := must[*vuln.ListAdvisoriesResponse](t, "list advisories")(c.Vulnerabilities().AdvisoriesService().ListAdvisories(ctx, &vuln.ListAdvisoriesRequest{}))
		if len(advisories.GetAdvisories()) == 0 {
			t.Fatal("no advisories answered")
		}
		one := advisories.GetAdvisories()[0]
		again := must[*vuln.Advisory](t, "get advisory")(c.Vulnerabilities().AdvisoriesService().GetAdvisory(ctx, &vuln.GetAdvisoryRequest{Uid: one.GetUid()}))
		if again.GetUid() != one.GetUid() {
			t.Fatalf("get advisory %s answered %s", one.GetUid(), again.GetUid())
		}
		_, err := c.Registry().ReposService().GetRepo(ctx, &registry.GetRepoRequest{Uid: "not a uid"})
		wantCode(t, "a malformed repo uid", err, codes.InvalidArgument)
	})

	t.Run("ping", func(t *testing.T) {
		conn := emulatorproc.Dial(t, b)
		pong := must[*ping.PingResponse](t, "ping")(ping.NewClientsFromConnection(conn).PingService().Ping(ctx, &ping.PingRequest{}))
		if pong.GetResponse() == "" {
			t.Fatal("an empty ping response")
		}
	})

	t.Run("unknown method", func(t *testing.T) {
		conn := emulatorproc.Dial(t, b)
		err := conn.Invoke(ctx, "/chainguard.platform.iam.v2beta1.GroupsService/NoSuchMethod", &ping.PingRequest{}, &ping.PingResponse{})
		wantCode(t, "an unknown method", err, codes.Unimplemented)
		_, err = iamv1.NewClientsFromConnection(conn).Roles().Create(ctx, &iamv1.CreateRoleRequest{})
		wantCode(t, "a v1 call the tools no longer make", err, codes.Unimplemented)
		// External group role mappings and terms are not served by the emulator at all.
		_, err = iamv1.NewExternalGroupRoleMappingsClient(conn).List(ctx, &iamv1.ExternalGroupRoleMappingFilter{})
		wantCode(t, "v1 external group role mappings", err, codes.Unimplemented)
		_, err = iamv1.NewTermsClient(conn).ListAccepted(ctx, &iamv1.TermsFilter{Group: b.RootGroupUID})
		wantCode(t, "v1 terms", err, codes.Unimplemented)
	})

	t.Run("v1 calls of the platform's tools", func(t *testing.T) {
		// The v1 clients, as the platform's CLI builds them (the token as the whole value).
		v1, err := iamv1.NewClients(ctx, b.GRPCURL, b.Token)
		if err != nil {
			t.Fatal(err)
		}
		defer v1.Close()
		found := must[*iamv1.Identity](t, "lookup")(v1.Identities().Lookup(ctx, &iamv1.LookupRequest{Issuer: b.Issuer, Subject: "ci-bot"}))
		if found.GetId() != w.ciBot || found.GetClaimMatch().GetSubject() != "ci-bot" {
			t.Fatalf("lookup answered %v", found)
		}
		_, err = v1.Identities().Lookup(ctx, &iamv1.LookupRequest{Issuer: b.Issuer, Subject: "nobody"})
		wantCode(t, "lookup of no identity", err, codes.NotFound)
		one := must[*iamv1.IdentityList](t, "identities by id")(v1.Identities().List(ctx, &iamv1.IdentityFilter{Id: w.deployer}))
		if len(one.GetItems()) != 1 || one.GetItems()[0].GetAwsIdentity().GetAwsAccount() != "123456789012" {
			t.Fatalf("identities by id: %v", one.GetItems())
		}
		below := must[*iamv1.IdentityList](t, "identities below engineering")(v1.Identities().List(ctx, &iamv1.IdentityFilter{Uidp: &common.UIDPFilter{DescendantsOf: w.engineering}}))
		if len(below.GetItems()) != 2 {
			t.Fatalf("identities below engineering: %d", len(below.GetItems()))
		}
		groups := must[*iamv1.GroupList](t, "groups by id")(v1.Groups().List(ctx, &iamv1.GroupFilter{Id: w.platform}))
		if len(groups.GetItems()) != 1 || groups.GetItems()[0].GetName() != "platform" {
			t.Fatalf("groups by id: %v", groups.GetItems())
		}
		named := must[*iamv1.GroupList](t, "groups by name")(v1.Groups().List(ctx, &iamv1.GroupFilter{Name: "research"}))
		if len(named.GetItems()) != 1 || named.GetItems()[0].GetId() != w.research {
			t.Fatalf("groups by name: %v", named.GetItems())
		}
	})
}
