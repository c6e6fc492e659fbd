// Package registryscenario drives the emulator's registry writes with the platform's
// own Go clients at the definitions' newer revision (chainguard.dev/sdk v0.1.212, the
// public repository's HEAD), the only revision that has them: CreateRepo, UpdateRepo,
// GetRepoReadme, UpdateRepoReadme, CreateTag, DeleteTag and DeleteRepo over gRPC, and
// the same calls over HTTP by their `google.api.http` rules, each answer decoded
// strictly into HEAD's messages; and the event subscriptions as the platform's tools
// manage them (HEAD's SubscriptionsService and the v1 Subscriptions service).
package registryscenario

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/grpccall"
)

// TestRegistryWritesOverGRPC runs the registry's writes through HEAD's generated clients.
func TestRegistryWritesOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	ctx := scenario.OwnerContext(t, b)
	c := registry.NewClientsFromConnection(conn)
	repos, tags := c.ReposService(), c.TagsService()

	repo := grpccall.Must[*registry.Repo](t, "create repo")(repos.CreateRepo(ctx, &registry.CreateRepoRequest{
		Parent: b.RootGroupUID,
		Repo:   &registry.Repo{Name: "grpc-head", Description: "made over gRPC", CatalogTier: registry.CatalogTier_CATALOG_TIER_BASE, Aliases: []string{"grpc-alias"}},
	}))
	if !strings.HasPrefix(repo.GetUid(), b.RootGroupUID+"/") || repo.GetName() != "grpc-head" || repo.GetCatalogTier() != registry.CatalogTier_CATALOG_TIER_BASE {
		t.Fatalf("created repo: %v", repo)
	}
	_, err := repos.CreateRepo(ctx, &registry.CreateRepoRequest{Parent: b.RootGroupUID, Repo: &registry.Repo{Name: "grpc-head"}})
	grpccall.WantCode(t, "a second repo of the name", err, codes.AlreadyExists)
	_, err = repos.CreateRepo(ctx, &registry.CreateRepoRequest{Parent: b.RootGroupUID, Repo: &registry.Repo{Name: "Bad Name"}})
	grpccall.WantCode(t, "a bad name", err, codes.InvalidArgument)

	updated := grpccall.Must[*registry.Repo](t, "update repo")(repos.UpdateRepo(ctx, &registry.UpdateRepoRequest{
		Repo:       &registry.Repo{Uid: repo.GetUid(), Name: "ignored", Description: "changed"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}},
	}))
	if updated.GetDescription() != "changed" || updated.GetName() != "grpc-head" {
		t.Fatalf("updated repo: %v", updated)
	}

	readme := grpccall.Must[*registry.RepoReadme](t, "get readme")(repos.GetRepoReadme(ctx, &registry.GetRepoReadmeRequest{Uid: repo.GetUid()}))
	if readme.GetUid() != repo.GetUid() || readme.GetContent() != "" {
		t.Fatalf("a new repo's README: %v", readme)
	}
	set := grpccall.Must[*registry.RepoReadme](t, "update readme")(repos.UpdateRepoReadme(ctx, &registry.UpdateRepoReadmeRequest{
		RepoReadme: &registry.RepoReadme{Uid: repo.GetUid(), Content: "# grpc"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"content"}},
	}))
	if set.GetContent() != "# grpc" {
		t.Fatalf("README after the update: %v", set)
	}

	digest := "sha256:" + strings.Repeat("e", 64)
	tag := grpccall.Must[*registry.Tag](t, "create tag")(tags.CreateTag(ctx, &registry.CreateTagRequest{
		Parent: repo.GetUid(), Tag: &registry.Tag{Name: "latest", Digest: digest},
	}))
	if !strings.HasPrefix(tag.GetUid(), repo.GetUid()+"/") || tag.GetDigest() != digest {
		t.Fatalf("created tag: %v", tag)
	}
	listed := grpccall.Must[*registry.ListTagsResponse](t, "list tags")(tags.ListTags(ctx, &registry.ListTagsRequest{Uidp: &common.UIDPFilter{ChildrenOf: repo.GetUid()}}))
	if len(listed.GetTags()) != 1 || listed.GetTags()[0].GetUid() != tag.GetUid() {
		t.Fatalf("tags of the repo: %v", listed.GetTags())
	}
	grpccall.Must[any](t, "delete tag")(tags.DeleteTag(ctx, &registry.DeleteTagRequest{Uid: tag.GetUid()}))
	_, err = tags.GetTag(ctx, &registry.GetTagRequest{Uid: tag.GetUid()})
	grpccall.WantCode(t, "a deleted tag", err, codes.NotFound)

	grpccall.Must[any](t, "delete repo")(repos.DeleteRepo(ctx, &registry.DeleteRepoRequest{Uid: repo.GetUid()}))
	_, err = repos.GetRepo(ctx, &registry.GetRepoRequest{Uid: repo.GetUid()})
	grpccall.WantCode(t, "a deleted repo", err, codes.NotFound)
}

// TestRegistryWritesOverHTTP sends the same writes by their HTTP rules and decodes each
// answer strictly into HEAD's message.
func TestRegistryWritesOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	call := scenario.HTTPCaller(t, b)
	repo := &registry.Repo{}
	call("POST", "/registry/v2beta1/repos/"+b.RootGroupUID, &registry.Repo{Name: "http-head", Aliases: []string{"web"}}, repo)
	updated := &registry.Repo{}
	call("PATCH", "/registry/v2beta1/repos/"+repo.GetUid()+"?update_mask=catalog_tier", &registry.Repo{CatalogTier: registry.CatalogTier_CATALOG_TIER_APPLICATION}, updated)
	if updated.GetCatalogTier() != registry.CatalogTier_CATALOG_TIER_APPLICATION {
		t.Fatalf("updated repo: %v", updated)
	}
	readme := &registry.RepoReadme{}
	call("PATCH", "/registry/v2beta1/repos/"+repo.GetUid()+"/readme?update_mask=content", &registry.RepoReadme{Content: "# http"}, readme)
	got := &registry.RepoReadme{}
	call("GET", "/registry/v2beta1/repos/"+repo.GetUid()+"/readme", nil, got)
	if !proto.Equal(readme, got) || got.GetContent() != "# http" {
		t.Fatalf("README: set %v, read %v", readme, got)
	}
	tag := &registry.Tag{}
	call("POST", "/registry/v2beta1/tags/"+repo.GetUid(), &registry.Tag{Name: "v1", Digest: "sha256:" + strings.Repeat("f", 64)}, tag)
	call("DELETE", "/registry/v2beta1/tags/"+tag.GetUid(), nil, &registry.Tag{})
	call("DELETE", "/registry/v2beta1/repos/"+repo.GetUid(), nil, &registry.Repo{})
}
