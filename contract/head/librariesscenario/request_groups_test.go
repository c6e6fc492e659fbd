package librariesscenario

import (
	"context"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	libraries "chainguard.dev/sdk/proto/chainguard/platform/libraries/v2beta1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/grpccall"
)

// TestRequestGroupsOverGRPC runs every RequestGroupsService call through HEAD's
// generated client: a draft from a requirements.txt, its items, a removal and a
// restore, a rename, the submit, the requested libraries, the coverage refresh (an
// internal capability the owner lacks) and the delete.
func TestRequestGroupsOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	seedArtifacts(t, b)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ctx = metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
	client := libraries.NewRequestGroupsServiceClient(conn)

	group := grpccall.Must[*libraries.RequestGroup](t, "create")(client.CreateRequestGroup(ctx, &libraries.CreateRequestGroupRequest{
		Parent: b.RootGroupUID, Name: "grpc-draft", Content: "requests==2.32.3\nflask==3.0.0\nnot pinned\n",
		Format: libraries.InputFormat_INPUT_FORMAT_REQUIREMENTS_TXT, Filename: "requirements.txt",
	}))
	if group.GetStatus() != libraries.RequestGroupStatus_REQUEST_GROUP_STATUS_COMPLETED || group.GetInput().GetItemCount() != 3 ||
		group.GetAvailabilitySummary().GetBuilt() != 1 || group.GetAvailabilitySummary().GetBlockingSubmit() != 1 {
		t.Fatalf("created group: %v", group)
	}
	_, err := client.CreateRequestGroup(ctx, &libraries.CreateRequestGroupRequest{Parent: b.RootGroupUID, Content: "a==1"})
	grpccall.WantCode(t, "content without a format", err, codes.InvalidArgument)
	got := grpccall.Must[*libraries.RequestGroup](t, "get")(client.GetRequestGroup(ctx, &libraries.GetRequestGroupRequest{Uid: group.GetUid()}))
	if got.GetName() != "grpc-draft" {
		t.Fatalf("got group: %v", got)
	}
	items := grpccall.Must[*libraries.ListRequestGroupItemsResponse](t, "items")(client.ListRequestGroupItems(ctx, &libraries.ListRequestGroupItemsRequest{
		Uid: group.GetUid(), Availability: libraries.Availability_AVAILABILITY_INVALID_REQUIREMENT,
	}))
	if len(items.GetRequestGroupItems()) != 1 {
		t.Fatalf("invalid items: %v", items)
	}
	invalid := items.GetRequestGroupItems()[0].GetUid()
	_, err = client.SubmitRequestGroup(ctx, &libraries.SubmitRequestGroupRequest{Uid: group.GetUid()})
	grpccall.WantCode(t, "a submit with an invalid item", err, codes.FailedPrecondition)
	removed := grpccall.Must[*libraries.RemoveItemsResponse](t, "remove")(client.RemoveItems(ctx, &libraries.RemoveItemsRequest{Uid: group.GetUid(), ItemUids: []string{invalid}}))
	if removed.GetRemovedCount() != 1 || removed.GetAvailabilitySummary().GetRemoved() != 1 {
		t.Fatalf("removed: %v", removed)
	}
	restored := grpccall.Must[*libraries.RestoreItemsResponse](t, "restore")(client.RestoreItems(ctx, &libraries.RestoreItemsRequest{Uid: group.GetUid(), ItemUids: []string{invalid}}))
	if restored.GetRestoredCount() != 1 {
		t.Fatalf("restored: %v", restored)
	}
	grpccall.Must[*libraries.RemoveItemsResponse](t, "remove again")(client.RemoveItems(ctx, &libraries.RemoveItemsRequest{Uid: group.GetUid(), ItemUids: []string{invalid}}))
	renamed := grpccall.Must[*libraries.RequestGroup](t, "update")(client.UpdateRequestGroup(ctx, &libraries.UpdateRequestGroupRequest{
		RequestGroup: &libraries.RequestGroup{Uid: group.GetUid(), Name: "grpc-renamed"},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"name"}},
	}))
	if renamed.GetName() != "grpc-renamed" {
		t.Fatalf("renamed: %v", renamed)
	}
	submitted := grpccall.Must[*libraries.RequestGroup](t, "submit")(client.SubmitRequestGroup(ctx, &libraries.SubmitRequestGroupRequest{Uid: group.GetUid()}))
	if submitted.GetSubmitTime() == nil || submitted.GetSubmittedBy() == "" {
		t.Fatalf("submitted: %v", submitted)
	}
	listed := grpccall.Must[*libraries.ListRequestGroupsResponse](t, "list")(client.ListRequestGroups(ctx, &libraries.ListRequestGroupsRequest{Parent: b.RootGroupUID}))
	if len(listed.GetRequestGroups()) != 1 || listed.GetRequestGroups()[0].GetUid() != group.GetUid() {
		t.Fatalf("listed: %v", listed)
	}
	libs := grpccall.Must[*libraries.ListRequestedLibrariesResponse](t, "requested libraries")(client.ListRequestedLibraries(ctx, &libraries.ListRequestedLibrariesRequest{
		Parent: b.RootGroupUID, Ecosystem: libraries.Ecosystem_ECOSYSTEM_PYTHON,
	}))
	if len(libs.GetRequestedLibraries()) != 2 || libs.GetRequestedLibraries()[1].GetBuildStatus() != libraries.RequestedLibraryBuildStatus_REQUESTED_LIBRARY_BUILD_STATUS_COMPLETE {
		t.Fatalf("requested libraries: %v", libs)
	}
	versions := grpccall.Must[*libraries.ListRequestedLibraryVersionsResponse](t, "requested versions")(client.ListRequestedLibraryVersions(ctx, &libraries.ListRequestedLibraryVersionsRequest{
		Parent: b.RootGroupUID, Name: "flask", Ecosystem: libraries.Ecosystem_ECOSYSTEM_PYTHON,
	}))
	if len(versions.GetRequestedLibraryVersions()) != 1 || versions.GetRequestedLibraryVersions()[0].GetAvailability() != libraries.Availability_AVAILABILITY_BUILDING {
		t.Fatalf("requested versions: %v", versions)
	}
	_, err = client.RefreshCoverage(ctx, &libraries.RefreshCoverageRequest{Uid: group.GetUid()})
	grpccall.WantCode(t, "a refresh by a customer's owner", err, codes.PermissionDenied)
	_, err = client.DeleteRequestGroup(ctx, &libraries.DeleteRequestGroupRequest{Uid: group.GetUid()})
	grpccall.WantCode(t, "a submitted group's delete by a customer's owner", err, codes.PermissionDenied)

	other := grpccall.Must[*libraries.RequestGroup](t, "create another")(client.CreateRequestGroup(ctx, &libraries.CreateRequestGroupRequest{
		Parent: b.RootGroupUID, Items: []string{"org.yaml:snakeyaml:2.2"},
	}))
	grpccall.Must[any](t, "delete draft")(client.DeleteRequestGroup(ctx, &libraries.DeleteRequestGroupRequest{Uid: other.GetUid()}))
	tombstone := grpccall.Must[*libraries.RequestGroup](t, "get tombstone")(client.GetRequestGroup(ctx, &libraries.GetRequestGroupRequest{Uid: other.GetUid()}))
	if tombstone.GetStatus() != libraries.RequestGroupStatus_REQUEST_GROUP_STATUS_CANCELED {
		t.Fatalf("tombstone: %v", tombstone)
	}
}

// TestRequestGroupsOverHTTP sends the calls by their HTTP rules and decodes each answer
// strictly into HEAD's message.
func TestRequestGroupsOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	seedArtifacts(t, b)
	call := scenario.HTTPCaller(t, b)
	base := "/libraries/v2beta1/requestGroups/"
	group := &libraries.RequestGroup{}
	call("POST", base+b.RootGroupUID, &libraries.CreateRequestGroupRequest{Name: "http-draft", Items: []string{"requests==2.32.3", "flask==3.0.0"}}, group)
	call("GET", base+group.GetUid(), nil, &libraries.RequestGroup{})
	items := &libraries.ListRequestGroupItemsResponse{}
	call("GET", base+group.GetUid()+"/items", nil, items)
	if len(items.GetRequestGroupItems()) != 2 {
		t.Fatalf("items: %v", items)
	}
	first := items.GetRequestGroupItems()[0].GetUid()
	call("POST", base+group.GetUid()+":removeItems", &libraries.RemoveItemsRequest{ItemUids: []string{first}}, &libraries.RemoveItemsResponse{})
	call("POST", base+group.GetUid()+":restoreItems", &libraries.RestoreItemsRequest{ItemUids: []string{first}}, &libraries.RestoreItemsResponse{})
	call("PATCH", base+group.GetUid()+"?update_mask=name", &libraries.RequestGroup{Name: "http-renamed"}, &libraries.RequestGroup{})
	call("POST", base+group.GetUid()+":submit", &libraries.SubmitRequestGroupRequest{}, &libraries.RequestGroup{})
	listed := &libraries.ListRequestGroupsResponse{}
	call("GET", "/libraries/v2beta1/requestGroups?parent="+b.RootGroupUID+"&state=REQUEST_GROUP_STATE_ALL", nil, listed)
	if len(listed.GetRequestGroups()) != 1 {
		t.Fatalf("listed: %v", listed)
	}
	libs := &libraries.ListRequestedLibrariesResponse{}
	call("GET", "/libraries/v2beta1/requestedLibraries?parent="+b.RootGroupUID, nil, libs)
	if len(libs.GetRequestedLibraries()) != 2 {
		t.Fatalf("requested libraries: %v", libs)
	}
	call("GET", "/libraries/v2beta1/requestedLibraries:versions?parent="+b.RootGroupUID+"&name=requests&ecosystem=ECOSYSTEM_PYTHON", nil, &libraries.ListRequestedLibraryVersionsResponse{})
	draft := &libraries.RequestGroup{}
	call("POST", base+b.RootGroupUID, &libraries.CreateRequestGroupRequest{Items: []string{"torch==2.0.0"}}, draft)
	call("DELETE", base+draft.GetUid(), nil, &libraries.RequestGroup{})
}
