// Package registryscenario drives the emulator's registry writes with the platform's
// own Go clients at the definitions' newer revision (chainguard.dev/sdk v0.1.212, the
// public repository's HEAD), the only revision that has them: CreateRepo, UpdateRepo,
// GetRepoReadme, UpdateRepoReadme, CreateTag, DeleteTag and DeleteRepo over gRPC, and
// the same calls over HTTP by their `google.api.http` rules, each answer decoded
// strictly into HEAD's messages; and the event subscriptions as the platform's tools
// manage them (HEAD's SubscriptionsService and the v1 Subscriptions service).
package registryscenario

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	"pulumi-irm/contract"
	"pulumi-irm/contract/internal/emulatorproc"
)

// withoutSpecFields takes out of a JSON answer the specification's timestamps the
// definitions lack (contract.SpecFields: a tag's createTime), each checked for its type,
// so that the rest is decoded strictly.
func withoutSpecFields(t *testing.T, out proto.Message, raw []byte) []byte {
	t.Helper()
	var object map[string]any
	if err := json.Unmarshal(raw, &object); err != nil {
		t.Fatalf("the answer is not a JSON object: %s", raw)
	}
	name := string(out.ProtoReflect().Descriptor().FullName())
	for _, field := range contract.SpecFields {
		value, ok := object[field.JSON]
		if field.Message != name || !ok {
			continue
		}
		if problem := field.Check(value); problem != "" {
			t.Fatalf("%s.%s: %s", name, field.JSON, problem)
		}
		delete(object, field.JSON)
	}
	stripped, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	return stripped
}

func start(t *testing.T) (emulatorproc.Bootstrap, *grpc.ClientConn) {
	t.Helper()
	// Run by tests/contract/contract.test.ts (after the build), not by every `go test`.
	if os.Getenv("IRM_GRPC_SCENARIO") == "" {
		t.Skip("set IRM_GRPC_SCENARIO=1 (tests/contract/contract.test.ts does)")
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	b := emulatorproc.Start(t, root)
	if b.GRPCURL == "" {
		t.Fatal("the emulator has no gRPC face (was the descriptor set built?)")
	}
	conn, err := grpc.NewClient(strings.TrimPrefix(b.GRPCURL, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return b, conn
}

func must[T any](t *testing.T, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	if st, ok := status.FromError(err); !ok || st.Code() != code {
		t.Fatalf("%s: want %v, got %v", what, code, err)
	}
}

// TestRegistryWritesOverGRPC runs the registry's writes through HEAD's generated clients.
func TestRegistryWritesOverGRPC(t *testing.T) {
	b, conn := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The platform's clients send the token as the whole authorization value.
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	c := registry.NewClientsFromConnection(conn)
	repos, tags := c.ReposService(), c.TagsService()

	repo := must[*registry.Repo](t, "create repo")(repos.CreateRepo(ctx, &registry.CreateRepoRequest{
		Parent: b.RootGroupUID,
		Repo:   &registry.Repo{Name: "grpc-head", Description: "made over gRPC", CatalogTier: registry.CatalogTier_CATALOG_TIER_BASE, Aliases: []string{"grpc-alias"}},
	}))
	if !strings.HasPrefix(repo.GetUid(), b.RootGroupUID+"/") || repo.GetName() != "grpc-head" || repo.GetCatalogTier() != registry.CatalogTier_CATALOG_TIER_BASE {
		t.Fatalf("created repo: %v", repo)
	}
	_, err := repos.CreateRepo(ctx, &registry.CreateRepoRequest{Parent: b.RootGroupUID, Repo: &registry.Repo{Name: "grpc-head"}})
	wantCode(t, "a second repo of the name", err, codes.AlreadyExists)
	_, err = repos.CreateRepo(ctx, &registry.CreateRepoRequest{Parent: b.RootGroupUID, Repo: &registry.Repo{Name: "Bad Name"}})
	wantCode(t, "a bad name", err, codes.InvalidArgument)

	updated := must[*registry.Repo](t, "update repo")(repos.UpdateRepo(ctx, &registry.UpdateRepoRequest{
		Repo:       &registry.Repo{Uid: repo.GetUid(), Name: "ignored", Description: "changed"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"description"}},
	}))
	if updated.GetDescription() != "changed" || updated.GetName() != "grpc-head" {
		t.Fatalf("updated repo: %v", updated)
	}

	readme := must[*registry.RepoReadme](t, "get readme")(repos.GetRepoReadme(ctx, &registry.GetRepoReadmeRequest{Uid: repo.GetUid()}))
	if readme.GetUid() != repo.GetUid() || readme.GetContent() != "" {
		t.Fatalf("a new repo's README: %v", readme)
	}
	set := must[*registry.RepoReadme](t, "update readme")(repos.UpdateRepoReadme(ctx, &registry.UpdateRepoReadmeRequest{
		RepoReadme: &registry.RepoReadme{Uid: repo.GetUid(), Content: "# grpc"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"content"}},
	}))
	if set.GetContent() != "# grpc" {
		t.Fatalf("README after the update: %v", set)
	}

	digest := "sha256:" + strings.Repeat("e", 64)
	tag := must[*registry.Tag](t, "create tag")(tags.CreateTag(ctx, &registry.CreateTagRequest{
		Parent: repo.GetUid(), Tag: &registry.Tag{Name: "latest", Digest: digest},
	}))
	if !strings.HasPrefix(tag.GetUid(), repo.GetUid()+"/") || tag.GetDigest() != digest {
		t.Fatalf("created tag: %v", tag)
	}
	listed := must[*registry.ListTagsResponse](t, "list tags")(tags.ListTags(ctx, &registry.ListTagsRequest{Uidp: &common.UIDPFilter{ChildrenOf: repo.GetUid()}}))
	if len(listed.GetTags()) != 1 || listed.GetTags()[0].GetUid() != tag.GetUid() {
		t.Fatalf("tags of the repo: %v", listed.GetTags())
	}
	must[any](t, "delete tag")(tags.DeleteTag(ctx, &registry.DeleteTagRequest{Uid: tag.GetUid()}))
	_, err = tags.GetTag(ctx, &registry.GetTagRequest{Uid: tag.GetUid()})
	wantCode(t, "a deleted tag", err, codes.NotFound)

	must[any](t, "delete repo")(repos.DeleteRepo(ctx, &registry.DeleteRepoRequest{Uid: repo.GetUid()}))
	_, err = repos.GetRepo(ctx, &registry.GetRepoRequest{Uid: repo.GetUid()})
	wantCode(t, "a deleted repo", err, codes.NotFound)
}

// httpCaller sends a JSON request made from a message with the owner's token and
// decodes the answer strictly into out (less the specification's fields).
func httpCaller(t *testing.T, b emulatorproc.Bootstrap) func(method, path string, body proto.Message, out proto.Message) {
	return func(method, path string, body proto.Message, out proto.Message) {
		t.Helper()
		var reader io.Reader
		if body != nil {
			raw, err := protojson.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			reader = bytes.NewReader(raw)
		}
		req, err := http.NewRequest(method, b.APIURL+path, reader)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+b.Token)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: HTTP %d %s", method, path, res.StatusCode, raw)
		}
		raw = withoutSpecFields(t, out, raw)
		if err := (protojson.UnmarshalOptions{}).Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: the answer is not a strict %s: %v\n%s", method, path, out.ProtoReflect().Descriptor().FullName(), err, raw)
		}
	}
}

// TestRegistryWritesOverHTTP sends the same writes by their HTTP rules and decodes each
// answer strictly into HEAD's message.
func TestRegistryWritesOverHTTP(t *testing.T) {
	b, _ := start(t)
	call := httpCaller(t, b)
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
