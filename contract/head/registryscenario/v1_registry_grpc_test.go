package registryscenario

import (
	"context"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	registryv1 "chainguard.dev/sdk/proto/platform/registry/v1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/grpccall"
)

const (
	digestA = "sha256:" + "a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0"
	digestB = "sha256:" + "b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1"
)

// TestV1RegistryOverGRPC manages repositories and tags as the platform's tools do, with
// the module's generated v1 Registry client over gRPC, on the records the v2beta1
// services read.
func TestV1RegistryOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	v1 := registryv1.NewRegistryClient(conn)
	v2 := registry.NewClientsFromConnection(conn)

	made := grpccall.Must[*registryv1.Repo](t, "v1 create repo")(v1.CreateRepo(ctx, &registryv1.CreateRepoRequest{
		ParentId: b.RootGroupUID,
		Repo:     &registryv1.Repo{Name: "grpc-tools", CatalogTier: registryv1.CatalogTier_BASE, Aliases: []string{"kit"}, Readme: "# Tools"},
	}))
	if !strings.HasPrefix(made.GetId(), b.RootGroupUID+"/") || made.GetReadme() != "# Tools" || made.GetCatalogTier() != registryv1.CatalogTier_BASE {
		t.Fatalf("created: %v", made)
	}
	_, err := v1.CreateRepo(ctx, &registryv1.CreateRepoRequest{
		ParentId: b.RootGroupUID, Repo: &registryv1.Repo{Name: "grpc-tools"}, PreventExisting: true,
	})
	grpccall.WantCode(t, "a repo of that name, prevent_existing", err, codes.AlreadyExists)

	listed := grpccall.Must[*registryv1.RepoList](t, "v1 list repos")(v1.ListRepos(ctx, &registryv1.RepoFilter{Id: made.GetId()}))
	if len(listed.GetItems()) != 1 || listed.GetItems()[0].GetReadme() != "# Tools" {
		t.Fatalf("listed with its README: %v", listed.GetItems())
	}
	updated := grpccall.Must[*registryv1.Repo](t, "v1 update repo")(v1.UpdateRepo(ctx, &registryv1.Repo{
		Id: made.GetId(), Name: "grpc-tools", Description: "build tools", CatalogTier: registryv1.CatalogTier_APPLICATION,
	}))
	if updated.GetDescription() != "build tools" || len(updated.GetAliases()) != 0 || updated.GetReadme() != "" {
		t.Fatalf("replaced whole: %v", updated)
	}
	seen := grpccall.Must[*registry.Repo](t, "v2beta1 get repo")(v2.ReposService().GetRepo(ctx, &registry.GetRepoRequest{Uid: made.GetId()}))
	if seen.GetDescription() != "build tools" || seen.GetCatalogTier() != registry.CatalogTier_CATALOG_TIER_APPLICATION {
		t.Fatalf("v2beta1 sees: %v", seen)
	}

	tag := grpccall.Must[*registryv1.Tag](t, "v1 create tag")(v1.CreateTag(ctx, &registryv1.CreateTagRequest{
		RepoId: made.GetId(), Tag: &registryv1.Tag{Name: "latest", Digest: digestA},
	}))
	if !strings.HasPrefix(tag.GetId(), made.GetId()+"/") || tag.GetDigest() != digestA || tag.GetLastUpdated() == nil {
		t.Fatalf("created tag: %v", tag)
	}
	_, err = v1.CreateTag(ctx, &registryv1.CreateTagRequest{
		RepoId: made.GetId(), Tag: &registryv1.Tag{Name: "bundled", Digest: digestA, Bundles: []string{"b"}},
	})
	grpccall.WantCode(t, "a tag with bundles", err, codes.InvalidArgument)
	tags := grpccall.Must[*registryv1.TagList](t, "v1 list tags")(v1.ListTags(ctx, &registryv1.TagFilter{
		Uidp: &common.UIDPFilter{ChildrenOf: made.GetId()},
	}))
	if len(tags.GetItems()) != 1 || tags.GetItems()[0].GetId() != tag.GetId() {
		t.Fatalf("v1 tags of the repo: %v", tags.GetItems())
	}
	moved := grpccall.Must[*registryv1.Tag](t, "v1 update tag")(v1.UpdateTag(ctx, &registryv1.Tag{
		Id: tag.GetId(), Name: "stable", Digest: digestB, Deprecated: true,
	}))
	if moved.GetName() != "stable" || moved.GetDigest() != digestB || !moved.GetDeprecated() {
		t.Fatalf("updated tag: %v", moved)
	}
	v2tag := grpccall.Must[*registry.Tag](t, "v2beta1 get tag")(v2.TagsService().GetTag(ctx, &registry.GetTagRequest{Uid: tag.GetId()}))
	if v2tag.GetName() != "stable" || v2tag.GetDigest() != digestB {
		t.Fatalf("v2beta1 sees: %v", v2tag)
	}
	byName := grpccall.Must[*registryv1.TagList](t, "v1 list tags by name")(v1.ListTags(ctx, &registryv1.TagFilter{
		Name: "latest", Uidp: &common.UIDPFilter{ChildrenOf: made.GetId()},
	}))
	if len(byName.GetItems()) != 0 {
		t.Fatalf("the old name still lists: %v", byName.GetItems())
	}
	grpccall.Must[any](t, "v1 delete tag")(v1.DeleteTag(ctx, &registryv1.DeleteTagRequest{Id: tag.GetId()}))
	_, err = v2.TagsService().GetTag(ctx, &registry.GetTagRequest{Uid: tag.GetId()})
	grpccall.WantCode(t, "the deleted tag", err, codes.NotFound)

	// A method of the service the emulator does not serve.
	_, err = v1.ListEolTags(ctx, &registryv1.EolTagFilter{})
	grpccall.WantCode(t, "ListEolTags", err, codes.Unimplemented)

	grpccall.Must[any](t, "v1 delete repo")(v1.DeleteRepo(ctx, &registryv1.DeleteRepoRequest{Id: made.GetId()}))
	left := grpccall.Must[*registryv1.RepoList](t, "v1 list after delete")(v1.ListRepos(ctx, &registryv1.RepoFilter{Id: made.GetId()}))
	if len(left.GetItems()) != 0 {
		t.Fatalf("left after delete: %v", left.GetItems())
	}
}

// TestV1TagsOverHTTP sends the v1 registry's tag calls by their HTTP rules, each body
// made from and each answer decoded strictly into the module's v1 messages.
func TestV1TagsOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	call := scenario.HTTPCaller(t, b)
	repo := &registryv1.Repo{}
	call("POST", "/registry/v1/repos/"+b.RootGroupUID, &registryv1.Repo{Name: "http-tags"}, repo)
	tag := &registryv1.Tag{}
	call("POST", "/registry/v1/tags/"+repo.GetId(), &registryv1.Tag{Name: "v1", Digest: digestA}, tag)
	if !strings.HasPrefix(tag.GetId(), repo.GetId()+"/") || tag.GetName() != "v1" {
		t.Fatalf("created tag: %v", tag)
	}
	list := &registryv1.TagList{}
	call("GET", "/registry/v1/tags?uidp.children_of="+repo.GetId()+"&digest="+digestA, nil, list)
	if len(list.GetItems()) != 1 || list.GetItems()[0].GetId() != tag.GetId() {
		t.Fatalf("listed: %v", list.GetItems())
	}
	updated := &registryv1.Tag{}
	call("PUT", "/registry/v1/tags/"+tag.GetId(), &registryv1.Tag{Id: tag.GetId(), Name: "v1", Digest: digestB}, updated)
	if updated.GetDigest() != digestB {
		t.Fatalf("updated: %v", updated)
	}
	call("DELETE", "/registry/v1/tags/"+tag.GetId(), nil, &registryv1.Tag{})
	left := &registryv1.TagList{}
	call("GET", "/registry/v1/tags?id="+tag.GetId(), nil, left)
	if len(left.GetItems()) != 0 {
		t.Fatalf("left after delete: %v", left.GetItems())
	}
}
