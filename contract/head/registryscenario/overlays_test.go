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
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/emulatorproc"
	"pulumi-irm/contract/internal/grpccall"
)

// seededImage seeds a repo whose tag `latest` names an image of two platforms (the
// emulator holds no manifests: ImagesService answers what was seeded) and answers the
// repo's uid and the digest.
func seededImage(t *testing.T, b emulatorproc.Bootstrap) (string, string) {
	t.Helper()
	digest := "sha256:" + strings.Repeat("d", 64)
	var seeded struct{ Repos []string }
	scenario.Seed(t, b, map[string]any{"repos": []any{map[string]any{
		"parentUid": b.RootGroupUID, "name": "imaged-" + time.Now().Format("150405.000000"),
		"tags": []any{map[string]any{"name": "latest", "digest": digest, "images": []any{
			map[string]any{"architecture": "linux/amd64", "size": 1234},
			map[string]any{"architecture": "linux/arm64", "size": 1200},
		}}},
	}}}, &seeded)
	if len(seeded.Repos) != 1 {
		t.Fatalf("seeded repos: %v", seeded.Repos)
	}
	return seeded.Repos[0], digest
}

// TestOverlaysAndImagesOverGRPC runs OverlaysService, OverlayBindingsService and
// ImagesService through HEAD's generated clients.
func TestOverlaysAndImagesOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	c := registry.NewClientsFromConnection(conn)
	overlays, bindings, images := c.OverlaysService(), c.OverlayBindingsService(), c.ImagesService()
	repoUID, digest := seededImage(t, b)

	overlay := grpccall.Must[*registry.Overlay](t, "create overlay")(overlays.CreateOverlay(ctx, &registry.CreateOverlayRequest{
		Parent:  b.RootGroupUID,
		Overlay: &registry.Overlay{Name: "grpc-tools", Config: &registry.CustomOverlay{Contents: &registry.CustomOverlay_ImageContents{Packages: []string{"curl", "jq"}}}},
	}))
	if !strings.HasPrefix(overlay.GetUid(), b.RootGroupUID+"/") || len(overlay.GetConfig().GetContents().GetPackages()) != 2 {
		t.Fatalf("created overlay: %v", overlay)
	}
	_, err := overlays.CreateOverlay(ctx, &registry.CreateOverlayRequest{
		Parent:  b.RootGroupUID,
		Overlay: &registry.Overlay{Name: "env", Config: &registry.CustomOverlay{Environment: map[string]string{"A": "b"}}},
	})
	grpccall.WantCode(t, "an overlay with environment", err, codes.InvalidArgument)
	got := grpccall.Must[*registry.Overlay](t, "get overlay")(overlays.GetOverlay(ctx, &registry.GetOverlayRequest{Uid: overlay.GetUid()}))
	if got.GetName() != "grpc-tools" {
		t.Fatalf("got overlay: %v", got)
	}
	listed := grpccall.Must[*registry.ListOverlaysResponse](t, "list overlays")(overlays.ListOverlays(ctx, &registry.ListOverlaysRequest{Name: "grpc-tools"}))
	if len(listed.GetOverlays()) != 1 || listed.GetOverlays()[0].GetUid() != overlay.GetUid() {
		t.Fatalf("listed overlays: %v", listed.GetOverlays())
	}

	binding := grpccall.Must[*registry.OverlayBinding](t, "create binding")(bindings.CreateOverlayBinding(ctx, &registry.CreateOverlayBindingRequest{
		Parent: repoUID, Overlay: "grpc-tools", Tags: []string{"latest"},
	}))
	if binding.GetRepo() != repoUID || binding.GetOverlay().GetUid() != overlay.GetUid() || len(binding.GetTags()) != 1 {
		t.Fatalf("created binding: %v", binding)
	}
	grpccall.Must[*registry.OverlayBinding](t, "get binding")(bindings.GetOverlayBinding(ctx, &registry.GetOverlayBindingRequest{Uid: binding.GetUid()}))
	ofRepo := grpccall.Must[*registry.ListOverlayBindingsResponse](t, "list bindings")(bindings.ListOverlayBindings(ctx, &registry.ListOverlayBindingsRequest{
		Uidp: &common.UIDPFilter{ChildrenOf: repoUID}, Overlay: overlay.GetUid(),
	}))
	if len(ofRepo.GetOverlayBindings()) != 1 {
		t.Fatalf("bindings of the repo: %v", ofRepo.GetOverlayBindings())
	}
	_, err = overlays.DeleteOverlay(ctx, &registry.DeleteOverlayRequest{Uid: overlay.GetUid()})
	grpccall.WantCode(t, "a bound overlay's delete", err, codes.FailedPrecondition)
	grpccall.Must[any](t, "delete binding")(bindings.DeleteOverlayBinding(ctx, &registry.DeleteOverlayBindingRequest{Uid: binding.GetUid()}))
	grpccall.Must[any](t, "delete overlay")(overlays.DeleteOverlay(ctx, &registry.DeleteOverlayRequest{Uid: overlay.GetUid()}))
	_, err = overlays.GetOverlay(ctx, &registry.GetOverlayRequest{Uid: overlay.GetUid()})
	grpccall.WantCode(t, "a deleted overlay", err, codes.NotFound)

	archs := grpccall.Must[*registry.Architectures](t, "get architectures")(images.GetArchitectures(ctx, &registry.GetArchitecturesRequest{RepoUid: repoUID, Digest: digest}))
	if strings.Join(archs.GetArchitectures(), ",") != "linux/amd64,linux/arm64" {
		t.Fatalf("architectures: %v", archs)
	}
	size := grpccall.Must[*registry.Size](t, "get size")(images.GetSize(ctx, &registry.GetSizeRequest{RepoUid: repoUID, Digest: digest, Architecture: "linux/arm64"}))
	if size.GetSize() != 1200 || size.GetArchitecture() != "linux/arm64" {
		t.Fatalf("size: %v", size)
	}
	_, err = images.GetSize(ctx, &registry.GetSizeRequest{RepoUid: repoUID, Digest: "sha256:" + strings.Repeat("0", 64)})
	grpccall.WantCode(t, "an image the repo lacks", err, codes.NotFound)
}

// TestOverlaysAndImagesOverHTTP sends the same calls by their HTTP rules and decodes each
// answer strictly into HEAD's message.
func TestOverlaysAndImagesOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	call := scenario.HTTPCaller(t, b)
	repoUID, digest := seededImage(t, b)
	overlay := &registry.Overlay{}
	call("POST", "/registry/v2beta1/overlays/"+b.RootGroupUID, &registry.Overlay{Name: "http-tools", Config: &registry.CustomOverlay{Contents: &registry.CustomOverlay_ImageContents{Packages: []string{"git"}}}}, overlay)
	call("GET", "/registry/v2beta1/overlays/"+overlay.GetUid(), nil, &registry.Overlay{})
	listed := &registry.ListOverlaysResponse{}
	call("GET", "/registry/v2beta1/overlays?name=http-tools", nil, listed)
	if len(listed.GetOverlays()) != 1 {
		t.Fatalf("listed overlays: %v", listed.GetOverlays())
	}
	binding := &registry.OverlayBinding{}
	call("POST", "/registry/v2beta1/overlayBindings/"+repoUID, &registry.CreateOverlayBindingRequest{Overlay: overlay.GetUid(), Tags: []string{"latest"}}, binding)
	call("GET", "/registry/v2beta1/overlayBindings/"+binding.GetUid(), nil, &registry.OverlayBinding{})
	bound := &registry.ListOverlayBindingsResponse{}
	call("GET", "/registry/v2beta1/overlayBindings?uidp.children_of="+repoUID, nil, bound)
	if len(bound.GetOverlayBindings()) != 1 {
		t.Fatalf("bindings: %v", bound.GetOverlayBindings())
	}
	archs := &registry.Architectures{}
	call("GET", "/registry/v2beta1/repos/"+repoUID+"/digests/"+digest+"/architectures", nil, archs)
	if len(archs.GetArchitectures()) != 2 {
		t.Fatalf("architectures: %v", archs)
	}
	size := &registry.Size{}
	call("GET", "/registry/v2beta1/repos/"+repoUID+"/digests/"+digest+"/size?architecture=linux/amd64", nil, size)
	if size.GetSize() != 1234 {
		t.Fatalf("size: %v", size)
	}
	call("DELETE", "/registry/v2beta1/overlayBindings/"+binding.GetUid(), nil, &registry.OverlayBinding{})
	call("DELETE", "/registry/v2beta1/overlays/"+overlay.GetUid(), nil, &registry.Overlay{})
}
