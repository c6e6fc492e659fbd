// Package advisoryscenario drives the emulator's SecurityAdvisoryService (HEAD's
// advisory v2beta1: documents, vulnerability metadata, resolved vulnerability reports)
// with the platform's own Go clients at v0.1.212, over gRPC and over HTTP by the
// methods' `google.api.http` rules, on data seeded through `/emulator/seed`.
package advisoryscenario

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/timestamppb"

	advisory "chainguard.dev/sdk/proto/chainguard/platform/advisory/v2beta1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/emulatorproc"
	"pulumi-irm/contract/internal/grpccall"
)

// seed gives the emulator one document, the metadata of one CVE and one vulnerability
// resolved on 2026-03-02 in the image `advised:latest`.
func seed(t *testing.T, b emulatorproc.Bootstrap) {
	t.Helper()
	var out map[string]any
	scenario.Seed(t, b, map[string]any{
		"documents": []any{map[string]any{"id": "openssl", "advisories": []any{map[string]any{
			"id": "CGA-aaaa-bbbb-cccc", "aliases": []string{"CVE-2026-1111"}, "packageNamespace": "wolfi",
			"events": []any{map[string]any{"timestamp": "2026-01-02T00:00:00Z", "fixed": map[string]any{"fixedVersion": "3.5.1-r0"}}},
		}}}},
		"vulnerabilityMetadata": []any{map[string]any{
			"id": "CVE-2026-1111", "summary": "overflow",
			"severities": []any{map[string]any{"type": "TYPE_CVSS_V3", "score": "9.8"}},
		}},
		"repos": []any{map[string]any{"parentUid": b.RootGroupUID, "name": "advised", "tags": []any{map[string]any{
			"name": "latest", "resolvedVulns": []any{map[string]any{"date": "2026-03-02", "id": "CGA-aaaa-bbbb-cccc", "aliases": []string{"CVE-2026-1111"}}},
		}}}},
	}, &out)
}

// TestSecurityAdvisoriesOverGRPC runs the three calls through HEAD's generated client.
func TestSecurityAdvisoriesOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	seed(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := advisory.NewClientsFromConnection(conn).SecurityAdvisoryService()

	// Documents and metadata need no token.
	docs := grpccall.Must[*advisory.ListDocumentsResponse](t, "list documents")(client.ListDocuments(ctx, &advisory.ListDocumentsRequest{Cves: []string{"CVE-2026-1111"}}))
	if len(docs.GetDocuments()) != 1 || docs.GetDocuments()[0].GetId() != "openssl" ||
		docs.GetDocuments()[0].GetAdvisories()[0].GetEvents()[0].GetFixed().GetFixedVersion() != "3.5.1-r0" {
		t.Fatalf("documents: %v", docs)
	}
	meta := grpccall.Must[*advisory.ListVulnerabilityMetadataResponse](t, "list metadata")(client.ListVulnerabilityMetadata(ctx, &advisory.ListVulnerabilityMetadataRequest{Ids: []string{"CVE-2026-1111", "CVE-1999-0001"}}))
	if len(meta.GetVulnerabilityMetadata()) != 1 || meta.GetVulnerabilityMetadata()[0].GetSeverities()[0].GetType() != advisory.Severity_TYPE_CVSS_V3 {
		t.Fatalf("metadata: %v", meta)
	}

	request := &advisory.ListResolvedVulnsReportsRequest{
		ImageRefs: []*advisory.ImageRef{{Repo: "advised"}},
		StartTime: timestamppb.New(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)),
		EndTime:   timestamppb.New(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)),
	}
	_, err := client.ListResolvedVulnsReports(ctx, request)
	grpccall.WantCode(t, "reports without a token", err, codes.Unauthenticated)
	authed := metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	reports := grpccall.Must[*advisory.ListResolvedVulnsReportsResponse](t, "list reports")(client.ListResolvedVulnsReports(authed, request))
	days := reports.GetResolvedVulnsReports()
	if len(days) != 2 || len(days[0].GetResolvedVulns()) != 0 || days[1].GetResolvedVulns()[0].GetId() != "CGA-aaaa-bbbb-cccc" {
		t.Fatalf("reports: %v", reports)
	}
	_, err = client.ListResolvedVulnsReports(authed, &advisory.ListResolvedVulnsReportsRequest{StartTime: request.StartTime, EndTime: request.EndTime})
	grpccall.WantCode(t, "reports without image_refs", err, codes.InvalidArgument)
}

// TestSecurityAdvisoriesOverHTTP sends the same calls by their HTTP rules and decodes each
// answer strictly into HEAD's message.
func TestSecurityAdvisoriesOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	seed(t, b)
	call := scenario.HTTPCaller(t, b)
	docs := &advisory.ListDocumentsResponse{}
	call("GET", "/advisory/v2beta1/documents?id=openssl", nil, docs)
	if len(docs.GetDocuments()) != 1 {
		t.Fatalf("documents: %v", docs)
	}
	meta := &advisory.ListVulnerabilityMetadataResponse{}
	call("GET", "/advisory/v2beta1/metadata?id=CVE-2026-1111", nil, meta)
	if len(meta.GetVulnerabilityMetadata()) != 1 {
		t.Fatalf("metadata: %v", meta)
	}
	reports := &advisory.ListResolvedVulnsReportsResponse{}
	call("GET", "/advisory/v2beta1/images/resolvedVulns?image_refs.repo=advised&image_refs.tags=latest&start_time=2026-03-02T00:00:00Z&end_time=2026-03-02T00:00:00Z", nil, reports)
	if len(reports.GetResolvedVulnsReports()) != 1 || len(reports.GetResolvedVulnsReports()[0].GetResolvedVulns()) != 1 {
		t.Fatalf("reports: %v", reports)
	}
}
