package grpcscenario

import (
	"context"
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
)

// restServices are the official IAM client types over restConn (HTTP/1.1 + JSON).
type restServices struct{ conn *restConn }

func (r restServices) GroupsService() iam.GroupsServiceClient {
	return iam.NewGroupsServiceClient(r.conn)
}
func (r restServices) IdentitiesService() iam.IdentitiesServiceClient {
	return iam.NewIdentitiesServiceClient(r.conn)
}
func (r restServices) RolesService() iam.RolesServiceClient { return iam.NewRolesServiceClient(r.conn) }
func (r restServices) RoleBindingsService() iam.RoleBindingsServiceClient {
	return iam.NewRoleBindingsServiceClient(r.conn)
}
func (r restServices) IdentityProvidersService() iam.IdentityProvidersServiceClient {
	return iam.NewIdentityProvidersServiceClient(r.conn)
}
func (r restServices) GroupInvitesService() iam.GroupInvitesServiceClient {
	return iam.NewGroupInvitesServiceClient(r.conn)
}
func (r restServices) AccountAssociationsService() iam.AccountAssociationsServiceClient {
	return iam.NewAccountAssociationsServiceClient(r.conn)
}

// TestHTTPLeavesTheSameState runs the scenario over gRPC on one emulator and over HTTP
// on another, then reads both states over HTTP: equal once uids, times, ports and the
// invite's secrets are named alike.
func TestHTTPLeavesTheSameState(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	overGRPC, overHTTP := startEmulator(t), startEmulator(t)

	g := platformClients(t, ctx, overGRPC, overGRPC.Token)
	runScenario(t, ctx, g.IAM(), overGRPC.RootGroupUID, overGRPC.Issuer)
	runScenario(t, ctx, restServices{&restConn{base: overHTTP.APIURL, token: overHTTP.Token}}, overHTTP.RootGroupUID, overHTTP.Issuer)

	a := stateOf(t, ctx, overGRPC)
	b := stateOf(t, ctx, overHTTP)
	if len(a) < 10 {
		t.Fatalf("the state read back holds only %d objects", len(a))
	}
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("the states differ:\nover gRPC:\n%s\n\nover HTTP:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

var uidToken = regexp.MustCompile(`[0-9a-f]{40}(/[0-9a-f]{16})*`)

// stateOf lists every IAM object below (and of) the root over HTTP, as sorted JSON
// lines in which each uid is replaced by the object's kind and name.
func stateOf(t *testing.T, ctx context.Context, b bootstrap) []string {
	t.Helper()
	r := restServices{&restConn{base: b.APIURL, token: b.Token}}
	all := &common.UIDPFilter{DescendantsOf: b.RootGroupUID}
	var objects []proto.Message
	labels := map[string]string{b.RootGroupUID: "group:root"}
	groups := must[*iam.ListGroupsResponse](t, "groups")(r.GroupsService().ListGroups(ctx, &iam.ListGroupsRequest{Uidp: all}))
	for _, x := range groups.GetGroups() {
		labels[x.GetUid()] = "group:" + x.GetName()
		objects = append(objects, x)
	}
	ids := must[*iam.ListIdentitiesResponse](t, "identities")(r.IdentitiesService().ListIdentities(ctx, &iam.ListIdentitiesRequest{Uidp: all}))
	for _, x := range ids.GetIdentities() {
		labels[x.GetUid()] = "identity:" + x.GetName()
		objects = append(objects, x)
	}
	roles := must[*iam.ListRolesResponse](t, "roles")(r.RolesService().ListRoles(ctx, &iam.ListRolesRequest{}))
	for _, x := range roles.GetRoles() {
		labels[x.GetUid()] = "role:" + x.GetName()
		objects = append(objects, x)
	}
	bindings := must[*iam.ListRoleBindingsResponse](t, "bindings")(r.RoleBindingsService().ListRoleBindings(ctx, &iam.ListRoleBindingsRequest{Uidp: all}))
	for _, x := range bindings.GetRoleBindings() {
		labels[x.GetUid()] = "binding"
		objects = append(objects, x)
	}
	idps := must[*iam.ListIdentityProvidersResponse](t, "providers")(r.IdentityProvidersService().ListIdentityProviders(ctx, &iam.ListIdentityProvidersRequest{Uidp: all}))
	for _, x := range idps.GetIdentityProviders() {
		labels[x.GetUid()] = "provider:" + x.GetName()
		objects = append(objects, x)
	}
	invites := must[*iam.ListGroupInvitesResponse](t, "invites")(r.GroupInvitesService().ListGroupInvites(ctx, &iam.ListGroupInvitesRequest{Uidp: all}))
	for _, x := range invites.GetGroupInvites() {
		labels[x.GetUid()] = "invite"
		x.KeyId = ""
		objects = append(objects, x)
	}
	assocs := must[*iam.ListAccountAssociationsResponse](t, "associations")(r.AccountAssociationsService().ListAccountAssociations(ctx, &iam.ListAccountAssociationsRequest{Uidp: &common.UIDPFilter{DescendantsOf: b.RootGroupUID}}))
	for _, x := range assocs.GetAccountAssociations() {
		objects = append(objects, x)
	}
	var lines []string
	for _, o := range objects {
		raw, err := protojson.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatal(err)
		}
		for _, times := range []string{"createTime", "updateTime", "lastSeenTime", "expirationTime"} {
			delete(fields, times)
		}
		text, _ := json.Marshal(fields)
		line := strings.ReplaceAll(string(text), b.APIURL, "ORIGIN")
		line = uidToken.ReplaceAllStringFunc(line, func(uid string) string {
			if label, ok := labels[uid]; ok {
				return label
			}
			return "unknown-uid"
		})
		lines = append(lines, line)
	}
	sort.Strings(lines)
	return lines
}
