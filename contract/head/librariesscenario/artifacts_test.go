// Package librariesscenario drives the emulator's Chainguard Libraries services (HEAD's
// libraries v2beta1) with the platform's own Go clients at v0.1.212, over gRPC and over
// HTTP by the methods' `google.api.http` rules.
package librariesscenario

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	libraries "chainguard.dev/sdk/proto/chainguard/platform/libraries/v2beta1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/emulatorproc"
	"pulumi-irm/contract/internal/grpccall"
)

// seedArtifacts gives the emulator two Python artifacts (one with two versions) and a
// Java one: the emulator reaches no language registry.
func seedArtifacts(t *testing.T, b emulatorproc.Bootstrap) {
	t.Helper()
	var out map[string]any
	scenario.Seed(t, b, map[string]any{"artifacts": []any{
		map[string]any{"name": "requests", "ecosystem": "ECOSYSTEM_PYTHON", "versions": []any{
			map[string]any{"version": "2.32.3", "sizeBytes": 120, "createTime": "2026-02-01T00:00:00Z"},
			map[string]any{"version": "2.31.0", "sizeBytes": 100, "createTime": "2026-01-01T00:00:00Z"},
		}},
		map[string]any{"name": "torch", "ecosystem": "ECOSYSTEM_PYTHON"},
		map[string]any{"name": "org.yaml:snakeyaml", "ecosystem": "ECOSYSTEM_JAVA"},
	}}, &out)
}

// TestArtifactsOverGRPC runs ArtifactsService through HEAD's generated client.
func TestArtifactsOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	seedArtifacts(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	client := libraries.NewClientsFromConnection(conn).ArtifactsService()

	listed := grpccall.Must[*libraries.ListArtifactsResponse](t, "list artifacts")(client.ListArtifacts(ctx, &libraries.ListArtifactsRequest{
		Ecosystems: []libraries.Ecosystem{libraries.Ecosystem_ECOSYSTEM_PYTHON},
	}))
	if len(listed.GetArtifacts()) != 2 || listed.GetArtifacts()[0].GetName() != "requests" ||
		listed.GetArtifacts()[0].GetLatestVersion() != "2.32.3" || listed.GetArtifacts()[0].GetVersionCount() != 2 {
		t.Fatalf("artifacts: %v", listed)
	}
	versions := grpccall.Must[*libraries.ListArtifactVersionsResponse](t, "list versions")(client.ListArtifactVersions(ctx, &libraries.ListArtifactVersionsRequest{
		ArtifactId: listed.GetArtifacts()[0].GetUid(), PageSize: 1,
	}))
	if len(versions.GetArtifactVersions()) != 1 || versions.GetArtifactVersions()[0].GetSizeBytes() != 120 || versions.GetNextPageToken() == "" {
		t.Fatalf("versions: %v", versions)
	}
	counts := grpccall.Must[*libraries.GetArtifactCountResponse](t, "count")(client.GetArtifactCount(ctx, &libraries.GetArtifactCountRequest{
		Ecosystems: []libraries.Ecosystem{libraries.Ecosystem_ECOSYSTEM_JAVA, libraries.Ecosystem_ECOSYSTEM_PYTHON},
	}))
	if len(counts.GetCounts()) != 2 || counts.GetCounts()[1].GetTotalCount() != 2 {
		t.Fatalf("counts: %v", counts)
	}
	_, err := client.ListArtifacts(ctx, &libraries.ListArtifactsRequest{})
	grpccall.WantCode(t, "a list without ecosystems", err, codes.InvalidArgument)
}

// TestArtifactsOverHTTP sends the same calls by their HTTP rules and decodes each answer
// strictly into HEAD's message.
func TestArtifactsOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	seedArtifacts(t, b)
	call := scenario.HTTPCaller(t, b)
	listed := &libraries.ListArtifactsResponse{}
	call("GET", "/libraries/v2beta1/artifacts?ecosystems=ECOSYSTEM_JAVA", nil, listed)
	if len(listed.GetArtifacts()) != 1 {
		t.Fatalf("artifacts: %v", listed)
	}
	python := &libraries.ListArtifactsResponse{}
	call("GET", "/libraries/v2beta1/artifacts?ecosystems=ECOSYSTEM_PYTHON&query=req", nil, python)
	versions := &libraries.ListArtifactVersionsResponse{}
	call("GET", "/libraries/v2beta1/artifacts/"+python.GetArtifacts()[0].GetUid()+"/versions", nil, versions)
	if len(versions.GetArtifactVersions()) != 2 {
		t.Fatalf("versions: %v", versions)
	}
	counts := &libraries.GetArtifactCountResponse{}
	call("GET", "/libraries/v2beta1/artifacts/count?ecosystems=ECOSYSTEM_PYTHON", nil, counts)
	if counts.GetCounts()[0].GetTotalCount() != 2 {
		t.Fatalf("counts: %v", counts)
	}
}
