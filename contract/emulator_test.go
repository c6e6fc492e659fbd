package contract

// The emulator judged by the real messages: requests are built from the official request
// messages and their google.api.http annotations; every answer, errors included (as
// google.rpc.Status with typed details), is decoded strictly into the official message.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	capabilities "chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vulns "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	oidc "chainguard.dev/sdk/proto/platform/oidc/v1"
	"google.golang.org/genproto/googleapis/api/annotations"
	_ "google.golang.org/genproto/googleapis/rpc/errdetails" // details resolve by type URL
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"pulumi-irm/contract/internal/emulatorproc"
)

type emulator struct {
	url, token, root, issuer string
}

// repoRoot is the repository the contract module sits in.
var repoRoot = emulatorproc.RepositoryRoot

func startEmulator(t *testing.T) *emulator {
	t.Helper()
	b := emulatorproc.Start(t, repoRoot(t))
	return &emulator{url: b.APIURL, token: b.Token, root: b.RootGroupUID, issuer: b.Issuer}
}

// answer is one exchange with the emulator.
type reply struct {
	method, target string
	status         int
	body           []byte
	head           []Found
	err            error
	rpcStatus      *spb.Status
}

func (a reply) String() string {
	body := string(a.body)
	if len(body) > 400 {
		body = body[:400] + "..."
	}
	return fmt.Sprintf("%s %s answered %d %s", a.method, a.target, a.status, body)
}

// call sends req as the official annotation of rpc says and decodes the answer strictly
// into resp (or, for an error, into google.rpc.Status).
// wire is an HTTP request as the official annotation of an RPC maps a request message.
type wire struct {
	method, path, contentType string
	query                     url.Values
	body                      []byte
}

// officialWire maps req onto HTTP by the google.api.http annotation of rpc (binding 0, or
// an additional binding): path variables, the body field as JSON (with HEAD additions
// put back, paths below the body), the rest as query parameters by proto path. With form,
// a POST without body mapping carries the fields as a form body instead of the query.
func officialWire(rpc string, req proto.Message, head []Found, form bool, binding int) (wire, error) {
	md := methodOf(rpc)
	if md == nil {
		return wire{}, fmt.Errorf("no method %s", rpc)
	}
	rule := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	if binding > 0 {
		if binding > len(rule.GetAdditionalBindings()) {
			return wire{}, fmt.Errorf("%s has no binding %d", rpc, binding)
		}
		rule = rule.GetAdditionalBindings()[binding-1]
	}
	var w wire
	var template string
	switch p := rule.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		w.method, template = "GET", p.Get
	case *annotations.HttpRule_Post:
		w.method, template = "POST", p.Post
	case *annotations.HttpRule_Patch:
		w.method, template = "PATCH", p.Patch
	case *annotations.HttpRule_Delete:
		w.method, template = "DELETE", p.Delete
	}
	used := map[string]bool{}
	empty, emptyTail := "", false
	w.path = regexp.MustCompile(`\{([a-z_.]+)(=[^}]*)?\}`).ReplaceAllStringFunc(template, func(m string) string {
		field := regexp.MustCompile(`\{([a-z_.]+)`).FindStringSubmatch(m)[1]
		used[field] = true
		v, _ := valueAt(req, field).(string)
		if v == "" && strings.HasSuffix(m, "=**}") {
			// `**` matches zero segments: an empty parent is a root organisation.
			emptyTail = true
		} else if v == "" {
			empty = field
		}
		return v
	})
	if emptyTail {
		w.path = strings.TrimSuffix(w.path, "/")
	}
	if empty != "" {
		return wire{}, fmt.Errorf("skipped: no %s (an earlier step failed)", empty)
	}
	w.query = url.Values{}
	var bodyMsg proto.Message
	switch rule.GetBody() {
	case "*":
		bodyMsg = req
	case "":
		addQuery(req.ProtoReflect(), "", used, w.query)
	default:
		used[rule.GetBody()] = true
		bodyMsg, _ = valueAt(req, rule.GetBody()).(proto.Message)
		addQuery(req.ProtoReflect(), "", used, w.query)
	}
	if bodyMsg != nil {
		text, err := protojson.Marshal(bodyMsg)
		if err != nil {
			return wire{}, err
		}
		if len(head) > 0 {
			var obj map[string]any
			_ = json.Unmarshal(text, &obj)
			for _, f := range head {
				var value any
				_ = json.Unmarshal([]byte(f.Value), &value)
				putBack(bodyMsg.ProtoReflect().Descriptor(), obj, strings.Split(f.Path, "."), value)
			}
			text, _ = json.Marshal(obj)
		}
		w.body, w.contentType = text, "application/json"
	}
	if form && w.method == "POST" && rule.GetBody() == "" {
		w.body, w.contentType = []byte(w.query.Encode()), "application/x-www-form-urlencoded"
		w.query = url.Values{}
	}
	return w, nil
}

// send makes the HTTP request of w against base.
func (w wire) send(base, token string) (*http.Response, error) {
	target := base + w.path
	if len(w.query) > 0 {
		target += "?" + w.query.Encode()
	}
	r, err := http.NewRequestWithContext(context.Background(), w.method, target, bytes.NewReader(w.body))
	if err != nil {
		return nil, err
	}
	if w.contentType != "" {
		r.Header.Set("Content-Type", w.contentType)
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	return http.DefaultClient.Do(r)
}

// call sends req as the official annotation of rpc says and decodes the answer strictly
// into resp (or, for an error, into google.rpc.Status).
func (e *emulator) call(rpc string, req proto.Message, resp proto.Message, token string) reply {
	return e.callWire(rpc, req, resp, token, nil, false, 0)
}

func (e *emulator) callWire(rpc string, req, resp proto.Message, token string, head []Found, form bool, binding int) reply {
	w, err := officialWire(rpc, req, head, form, binding)
	if err != nil {
		return reply{err: err}
	}
	a := reply{method: w.method, target: w.path}
	if len(w.query) > 0 {
		a.target += "?" + w.query.Encode()
	}
	res, err := w.send(e.url, token)
	if err != nil {
		a.err = err
		return a
	}
	defer res.Body.Close()
	a.status = res.StatusCode
	a.body, _ = io.ReadAll(res.Body)
	if res.StatusCode/100 == 2 {
		a.head, a.err = DecodeStrict(a.body, resp)
		if a.err != nil {
			keepStrings(a.body, resp)
		}
	} else {
		st := &spb.Status{}
		a.head, a.err = DecodeStrict(a.body, st)
		a.rpcStatus = st
	}
	return a
}

// keepStrings fills the top-level string fields of m from an answer that failed the
// strict decode (already reported), so the steps that need its uid can still run.
func keepStrings(text []byte, m proto.Message) {
	var raw map[string]any
	if json.Unmarshal(text, &raw) != nil {
		return
	}
	fields := m.ProtoReflect().Descriptor().Fields()
	for key, value := range raw {
		fd := fields.ByJSONName(key)
		if s, ok := value.(string); ok && fd != nil && fd.Kind() == protoreflect.StringKind && !fd.IsList() {
			m.ProtoReflect().Set(fd, protoreflect.ValueOfString(s))
		}
	}
}

// valueAt reads a dotted proto path of m.
func valueAt(m proto.Message, path string) any {
	msg := m.ProtoReflect()
	segments := strings.Split(path, ".")
	for i, s := range segments {
		fd := msg.Descriptor().Fields().ByName(protoreflect.Name(s))
		if fd == nil {
			return nil
		}
		if i == len(segments)-1 {
			if fd.Message() != nil {
				if !msg.Has(fd) {
					return nil
				}
				return msg.Get(fd).Message().Interface()
			}
			return msg.Get(fd).Interface()
		}
		msg = msg.Get(fd).Message()
	}
	return nil
}

// addQuery puts every set field not bound to the path or body in the query, by proto path.
func addQuery(m protoreflect.Message, at string, used map[string]bool, q url.Values) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		path := join(at, string(fd.Name()))
		if used[path] {
			return true
		}
		switch {
		case fd.Message() != nil && fd.Message().FullName() == "google.protobuf.FieldMask":
			q.Set(path, strings.Join(v.Message().Interface().(*fieldmaskpb.FieldMask).GetPaths(), ","))
		case fd.Message() != nil && !fd.IsList():
			addQuery(v.Message(), path, used, q)
		case fd.IsList():
			for i := 0; i < v.List().Len(); i++ {
				q.Add(path, scalar(fd, v.List().Get(i)))
			}
		default:
			q.Set(path, scalar(fd, v))
		}
		return true
	})
}

func scalar(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.Enum() != nil {
		return string(fd.Enum().Values().ByNumber(v.Enum()).Name())
	}
	return fmt.Sprint(v.Interface())
}

// judge fails the test with the exchange when the answer was not the expected status or
// did not decode strictly.
func judge(t *testing.T, what string, a reply, wantStatus int) {
	t.Helper()
	if a.err != nil && a.status == 0 && strings.HasPrefix(a.err.Error(), "skipped") {
		t.Logf("%s: %v", what, a.err)
		return
	}
	if a.status != wantStatus {
		t.Errorf("%s: want HTTP %d; %s", what, wantStatus, a)
		return
	}
	if a.err != nil {
		t.Errorf("%s: the answer is not the official message: %v; %s", what, a.err, a)
	}
}

const (
	rpcGroups = "/chainguard.platform.iam.v2beta1.GroupsService/"
)

// TestEmulator drives every collection and verb of the emulator with official requests.
func TestEmulator(t *testing.T) {
	e := startEmulator(t)
	tok := e.token
	suffix := fmt.Sprintf("%d", time.Now().UnixNano()%100000)

	// Every operation of HEAD's v2beta1 definitions: answered as head_operations.go says.
	t.Run("HeadOperations", func(t *testing.T) { probeOperations(t, e) })

	// A new group's parent by uid suffix and by name (corrections 16), and a root
	// organisation from an empty parent, which its creator owns.
	named := &iam.Group{}
	judge(t, "CreateGroup (named parent)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: e.root, Group: &iam.Group{Name: "contract-parent-" + suffix}}, named, tok), 200)
	for what, parent := range map[string]string{"uid suffix": named.GetUid()[strings.LastIndex(named.GetUid(), "/")+1:], "name": named.GetName()} {
		under := &iam.Group{}
		judge(t, "CreateGroup (parent by "+what+")", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: parent, Group: &iam.Group{Name: "by " + what}}, under, tok), 200)
		if parentOf(under.GetUid()) != named.GetUid() {
			t.Errorf("CreateGroup (parent by %s %q): made %q, want a child of %s", what, parent, under.GetUid(), named.GetUid())
		}
	}
	org := &iam.Group{}
	judge(t, "CreateGroup (empty parent: a root organisation)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Group: &iam.Group{Name: "contract-org-" + suffix}}, org, tok), 200)
	if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(org.GetUid()) {
		t.Errorf("CreateGroup (empty parent): uid %q is no root organisation's", org.GetUid())
	}
	judge(t, "CreateGroup (in the new organisation, by its owner)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: org.GetUid(), Group: &iam.Group{Name: "first-team"}}, &iam.Group{}, tok), 200)

	// Groups.
	group := &iam.Group{}
	a := e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: e.root, Group: &iam.Group{Name: "contract-" + suffix, Description: "judged"}}, group, tok)
	judge(t, "CreateGroup", a, 200)
	if group.GetUid() == "" {
		t.Fatalf("CreateGroup made no group: %s", a)
	}
	judge(t, "GetGroup", e.call(rpcGroups+"GetGroup", &iam.GetGroupRequest{Uid: group.Uid}, &iam.Group{}, tok), 200)
	child := &iam.Group{}
	judge(t, "CreateGroup (child)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: "child-a"}}, child, tok), 200)
	judge(t, "CreateGroup (second child)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: "child-b"}}, &iam.Group{}, tok), 200)
	page := &iam.ListGroupsResponse{}
	a = e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: uidpChildren(group.Uid), PageSize: 1}, page, tok)
	judge(t, "ListGroups (page 1 of 2)", a, 200)
	if len(page.GetGroups()) != 1 || page.GetNextPageToken() == "" {
		t.Errorf("ListGroups page_size=1 of two children: %d groups, next token %q; %s", len(page.GetGroups()), page.GetNextPageToken(), a)
	} else {
		page2 := &iam.ListGroupsResponse{}
		judge(t, "ListGroups (page 2)", e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: uidpChildren(group.Uid), PageSize: 1, PageToken: page.NextPageToken}, page2, tok), 200)
	}
	filtered := &iam.ListGroupsResponse{}
	judge(t, "ListGroups (name)", e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: uidpChildren(group.Uid), Name: "child-a"}, filtered, tok), 200)
	if len(filtered.GetGroups()) != 1 {
		t.Errorf("ListGroups name=child-a: %d groups, want 1", len(filtered.GetGroups()))
	}
	// The other scope filters of every List (uidp).
	ids := &iam.ListGroupsResponse{}
	a = e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: &commonUIDP{Ids: []string{child.GetUid()}}}, ids, tok)
	judge(t, "ListGroups (uidp.ids)", a, 200)
	if len(ids.GetGroups()) != 1 || ids.GetGroups()[0].GetUid() != child.GetUid() {
		t.Errorf("ListGroups uidp.ids=[%s]: %d groups, want exactly that one; %s", child.GetUid(), len(ids.GetGroups()), a)
	}
	ancestors := &iam.ListGroupsResponse{}
	a = e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: &commonUIDP{AncestorsOf: child.GetUid()}}, ancestors, tok)
	judge(t, "ListGroups (uidp.ancestors_of)", a, 200)
	if got := uidsOf(ancestors.GetGroups()); !got[group.Uid] || !got[e.root] || got[child.GetUid()] {
		t.Errorf("ListGroups uidp.ancestors_of=%s: %v, want its group and the root, not itself; %s", child.GetUid(), keys(got), a)
	}
	roots := &iam.ListGroupsResponse{}
	a = e.call(rpcGroups+"ListGroups", &iam.ListGroupsRequest{Uidp: &commonUIDP{InRoot: true}}, roots, tok)
	judge(t, "ListGroups (uidp.in_root)", a, 200)
	if got := uidsOf(roots.GetGroups()); !got[e.root] || len(got) == 0 {
		t.Errorf("ListGroups uidp.in_root=true: %v, want the root organisation; %s", keys(got), a)
	} else {
		for uid := range got {
			if strings.Contains(uid, "/") {
				t.Errorf("ListGroups uidp.in_root=true answered %s, which is not at the root", uid)
			}
		}
	}
	judge(t, "UpdateGroup (update_mask description)", e.call(rpcGroups+"UpdateGroup", &iam.UpdateGroupRequest{
		Group: &iam.Group{Uid: group.Uid, Description: "changed"}, UpdateMask: mask("description")}, &iam.Group{}, tok), 200)
	// A group update naming `verified` (sent unchanged) is accepted by the service.
	judge(t, "UpdateGroup (update_mask description,verified)", e.call(rpcGroups+"UpdateGroup", &iam.UpdateGroupRequest{
		Group: &iam.Group{Uid: group.Uid, Description: "again"}, UpdateMask: mask("description", "verified")}, &iam.Group{}, tok), 200)

	// Identities.
	const rpcIds = "/chainguard.platform.iam.v2beta1.IdentitiesService/"
	identity := &iam.Identity{}
	judge(t, "CreateIdentity (claim_match)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "ci-identity", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://token.actions.githubusercontent.com"},
			Sub: &iam.Identity_ClaimMatch_SubjectPattern{SubjectPattern: "repo:org/.*"}}}}}, identity, tok), 200)
	judge(t, "CreateIdentity (aws_identity)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "aws-identity", Relationship: &iam.Identity_AwsIdentity{AwsIdentity: &iam.Identity_AWSIdentity{AwsAccount: "123456789012",
			AwsArn: &iam.Identity_AWSIdentity_Arn{Arn: "arn:aws:iam::123456789012:role/ci"}, AwsUserId: &iam.Identity_AWSIdentity_UserIdPattern{UserIdPattern: "AROA.*"}}}}}, &iam.Identity{}, tok), 200)
	judge(t, "CreateIdentity (service_principal)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "ingester", Relationship: &iam.Identity_ServicePrincipal{ServicePrincipal: iam.ServicePrincipal_SERVICE_PRINCIPAL_INGESTER}}}, &iam.Identity{}, tok), 200)
	judge(t, "GetIdentity", e.call(rpcIds+"GetIdentity", &iam.GetIdentityRequest{Uid: identity.GetUid()}, &iam.Identity{}, tok), 200)
	kinds := &iam.ListIdentitiesResponse{}
	judge(t, "ListIdentities (relationship_type AWS)", e.call(rpcIds+"ListIdentities", &iam.ListIdentitiesRequest{Uidp: uidpChildren(group.Uid), RelationshipType: iam.RelationshipType_RELATIONSHIP_TYPE_AWS_IDENTITY}, kinds, tok), 200)
	if len(kinds.GetIdentities()) != 1 {
		t.Errorf("ListIdentities relationship_type=AWS_IDENTITY: %d identities, want 1", len(kinds.GetIdentities()))
	}
	judge(t, "UpdateIdentity (update_mask claim_match.subject_pattern)", e.call(rpcIds+"UpdateIdentity", &iam.UpdateIdentityRequest{
		Identity: &iam.Identity{Uid: identity.GetUid(), Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Sub: &iam.Identity_ClaimMatch_SubjectPattern{SubjectPattern: "repo:org/app:.*"}}}}, UpdateMask: mask("claim_match.subject_pattern")}, &iam.Identity{}, tok), 200)

	// Roles: built-in sets, a custom role as a child of its group.
	const rpcRoles = "/chainguard.platform.iam.v2beta1.RolesService/"
	roles := &iam.ListRolesResponse{}
	a = e.call(rpcRoles+"ListRoles", &iam.ListRolesRequest{PageSize: 200}, roles, tok)
	judge(t, "ListRoles", a, 200)
	checkBuiltInRoles(t, roles, a.head)
	// Read loosely too, so the steps below can go on when the strict decode failed.
	var loose struct {
		Roles []struct{ UID, Name string } `json:"roles"`
	}
	_ = json.Unmarshal(a.body, &loose)
	var viewer string
	for _, r := range loose.Roles {
		if r.Name == "viewer" {
			viewer = r.UID
		}
	}
	role := &iam.Role{}
	a = e.call(rpcRoles+"CreateRole", &iam.CreateRoleRequest{Parent: group.Uid, Role: &iam.Role{Name: "puller",
		Capabilities: capsOf("CAP_REPO_LIST", "CAP_IAM_GROUPS_LIST")}}, role, tok)
	judge(t, "CreateRole", a, 200)
	if role.GetUid() != "" && !regexp.MustCompile(`^`+regexp.QuoteMeta(group.Uid)+`/[0-9a-f]{16}$`).MatchString(role.GetUid()) {
		t.Errorf("CreateRole: uid %q is not <group uid>/<16 hex>", role.GetUid())
	}
	everything := &iam.Role{}
	judge(t, "CreateRole (every capability of OwnerCaps)", e.call(rpcRoles+"CreateRole", &iam.CreateRoleRequest{Parent: group.Uid,
		Role: &iam.Role{Name: "all-owner-caps", Capabilities: capabilities.OwnerCaps}}, everything, tok), 200)
	if everything.GetUid() != "" {
		judge(t, "DeleteRole (every capability of OwnerCaps)", e.call(rpcRoles+"DeleteRole", &iam.DeleteRoleRequest{Uid: everything.GetUid()}, &emptypb.Empty{}, tok), 200)
	}
	judge(t, "GetRole (custom)", e.call(rpcRoles+"GetRole", &iam.GetRoleRequest{Uid: role.GetUid()}, &iam.Role{}, tok), 200)
	judge(t, "UpdateRole (update_mask capabilities)", e.call(rpcRoles+"UpdateRole", &iam.UpdateRoleRequest{
		Role: &iam.Role{Uid: role.GetUid(), Capabilities: capsOf("CAP_REPO_LIST")}, UpdateMask: mask("capabilities")}, &iam.Role{}, tok), 200)

	// Role bindings.
	const rpcBindings = "/chainguard.platform.iam.v2beta1.RoleBindingsService/"
	binding := &iam.RoleBinding{}
	judge(t, "CreateRoleBinding", e.call(rpcBindings+"CreateRoleBinding", &iam.CreateRoleBindingRequest{Parent: group.Uid,
		RoleBinding: &iam.RoleBinding{IdentityUid: identity.GetUid(), RoleUid: viewer}}, binding, tok), 200)
	judge(t, "GetRoleBinding", e.call(rpcBindings+"GetRoleBinding", &iam.GetRoleBindingRequest{Uid: binding.GetUid()}, &iam.RoleBinding{}, tok), 200)
	other := &iam.Identity{}
	judge(t, "CreateIdentity (second)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "other-identity", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://token.example"}, Sub: &iam.Identity_ClaimMatch_Subject{Subject: "x"}}}}}, other, tok), 200)
	second := &iam.RoleBinding{}
	judge(t, "CreateRoleBinding (second)", e.call(rpcBindings+"CreateRoleBinding", &iam.CreateRoleBindingRequest{Parent: group.Uid,
		RoleBinding: &iam.RoleBinding{IdentityUid: other.GetUid(), RoleUid: viewer}}, second, tok), 200)
	for _, f := range []struct {
		name string
		req  *iam.ListRoleBindingsRequest
	}{
		{"identity", &iam.ListRoleBindingsRequest{Identity: identity.GetUid()}},
		{"group", &iam.ListRoleBindingsRequest{Group: group.Uid, Identity: identity.GetUid()}},
		{"role", &iam.ListRoleBindingsRequest{Role: viewer, Identity: identity.GetUid()}},
	} {
		list := &iam.ListRoleBindingsResponse{}
		a := e.call(rpcBindings+"ListRoleBindings", f.req, list, tok)
		judge(t, "ListRoleBindings ("+f.name+")", a, 200)
		if a.err == nil && len(list.GetRoleBindings()) != 1 {
			t.Errorf("ListRoleBindings filtered by %s: %d bindings, want 1 (the filter must be applied); %s", f.name, len(list.GetRoleBindings()), a)
		}
	}
	judge(t, "UpdateRoleBinding (update_mask role_uid)", e.call(rpcBindings+"UpdateRoleBinding", &iam.UpdateRoleBindingRequest{
		RoleBinding: &iam.RoleBinding{Uid: binding.GetUid(), RoleUid: role.GetUid()}, UpdateMask: mask("role_uid")}, &iam.RoleBinding{}, tok), 200)
	judge(t, "DeleteRoleBinding", e.call(rpcBindings+"DeleteRoleBinding", &iam.DeleteRoleBindingRequest{Uid: binding.GetUid()}, &emptypb.Empty{}, tok), 200)
	judge(t, "DeleteRoleBinding (missing: idempotent)", e.call(rpcBindings+"DeleteRoleBinding", &iam.DeleteRoleBindingRequest{Uid: binding.GetUid()}, &emptypb.Empty{}, tok), 200)

	// HEAD's service principals: the request carries one v0.1.57 cannot hold.
	sp := &iam.Identity{}
	a = e.callWire(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "guardener", Relationship: &iam.Identity_ServicePrincipal{}}}, sp, tok,
		[]Found{{"service_principal", `"SERVICE_PRINCIPAL_GUARDENER"`}}, false, 0)
	judge(t, "CreateIdentity (service_principal GUARDENER, HEAD)", a, 200)
	if a.status == 200 && !hasFound(a.head, "service_principal", `"SERVICE_PRINCIPAL_GUARDENER"`) {
		t.Errorf("CreateIdentity GUARDENER: the answer does not carry it back; %s", a)
	}
	// Static keys: a key set of one public key, expiring within a year.
	judge(t, "CreateIdentity (static_keys)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "offline", Relationship: &iam.Identity_StaticKeys_{StaticKeys: &iam.Identity_StaticKeys{
			Issuer: "https://offline.example.com", Subject: "robot",
			IssuerKeys:     `{"keys":[{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}]}`,
			ExpirationTime: timestamppb.New(time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second))}}}}, &iam.Identity{}, tok), 200)

	// Token exchange: POST with a form body, and GET with a query (its additional binding).
	const rpcExchange = "/chainguard.platform.oidc.SecurityTokenService/Exchange"
	oidcToken := e.oidcToken(t, "contract-subject")
	exchanger := &iam.Identity{}
	judge(t, "CreateIdentity (for the exchange)", e.call(rpcIds+"CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{
		Name: "exchanger", Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: e.issuer}, Sub: &iam.Identity_ClaimMatch_Subject{Subject: "contract-subject"}}}}}, exchanger, tok), 200)
	if oidcToken != "" && exchanger.GetUid() != "" {
		req := &oidc.ExchangeRequest{Aud: []string{e.url}, Identity: exchanger.GetUid()}
		judge(t, "Exchange (POST form)", e.callWire(rpcExchange, req, &oidc.RawToken{}, oidcToken, nil, true, 0), 200)
		judge(t, "Exchange (GET query)", e.callWire(rpcExchange, req, &oidc.RawToken{}, oidcToken, nil, false, 1), 200)
		// An identity without an audience accepts a token for the host of {auth_url}.
		host := strings.TrimPrefix(strings.TrimPrefix(e.url, "http://"), "https://")
		if hostToken := e.oidcTokenFor(t, "contract-subject", host); hostToken != "" {
			judge(t, "Exchange (token for the host of the auth URL: the default audience)",
				e.callWire(rpcExchange, req, &oidc.RawToken{}, hostToken, nil, false, 1), 200)
		}
	}

	// Identity providers.
	const rpcIdps = "/chainguard.platform.iam.v2beta1.IdentityProvidersService/"
	idp := &iam.IdentityProvider{}
	judge(t, "CreateIdentityProvider", e.call(rpcIdps+"CreateIdentityProvider", &iam.CreateIdentityProviderRequest{Parent: group.Uid,
		IdentityProvider: &iam.IdentityProvider{Name: "sso", DefaultRole: viewer, Configuration: &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{
			Issuer: "https://login.example.com", ClientId: "client", ClientSecret: "contract-secret", AdditionalScopes: []string{"email"}}}}}, idp, tok), 200)
	judge(t, "GetIdentityProvider", e.call(rpcIdps+"GetIdentityProvider", &iam.GetIdentityProviderRequest{Uid: idp.GetUid()}, &iam.IdentityProvider{}, tok), 200)
	judge(t, "ListIdentityProviders", e.call(rpcIdps+"ListIdentityProviders", &iam.ListIdentityProvidersRequest{Uidp: uidpChildren(group.Uid)}, &iam.ListIdentityProvidersResponse{}, tok), 200)
	judge(t, "UpdateIdentityProvider (update_mask oidc.client_id)", e.call(rpcIdps+"UpdateIdentityProvider", &iam.UpdateIdentityProviderRequest{
		IdentityProvider: &iam.IdentityProvider{Uid: idp.GetUid(), Configuration: &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{ClientId: "client-2"}}},
		UpdateMask:       mask("oidc.client_id")}, &iam.IdentityProvider{}, tok), 200)
	pkce := &iam.IdentityProvider{}
	a = e.callWire(rpcIdps+"CreateIdentityProvider", &iam.CreateIdentityProviderRequest{Parent: group.Uid,
		IdentityProvider: &iam.IdentityProvider{Name: "sso-pkce", DefaultRole: viewer, Configuration: &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{
			Issuer: "https://login.example.com", ClientId: "public-client"}}}}, pkce, tok,
		[]Found{{"oidc.pkce_enabled", "true"}, {"oidc.correlation_rule", `"CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"`}}, false, 0)
	judge(t, "CreateIdentityProvider (PKCE, correlation rule: HEAD)", a, 200)
	if a.status == 200 && (!hasFound(a.head, "oidc.pkce_enabled", "true") || !hasFound(a.head, "oidc.correlation_rule", `"CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"`)) {
		t.Errorf("CreateIdentityProvider PKCE: the answer does not carry pkce_enabled and correlation_rule back; %s", a)
	}
	judge(t, "DeleteIdentityProvider", e.call(rpcIdps+"DeleteIdentityProvider", &iam.DeleteIdentityProviderRequest{Uid: idp.GetUid()}, &emptypb.Empty{}, tok), 200)

	// Group invites.
	const rpcInvites = "/chainguard.platform.iam.v2beta1.GroupInvitesService/"
	invite := &iam.GroupInvite{}
	judge(t, "CreateGroupInvite", e.call(rpcInvites+"CreateGroupInvite", &iam.CreateGroupInviteRequest{Parent: group.Uid,
		GroupInvite: &iam.GroupInvite{RoleUid: viewer, Ttl: durationpb.New(time.Hour)}}, invite, tok), 200)
	newer := &iam.GroupInvite{}
	judge(t, "CreateGroupInvite (second)", e.call(rpcInvites+"CreateGroupInvite", &iam.CreateGroupInviteRequest{Parent: group.Uid,
		GroupInvite: &iam.GroupInvite{RoleUid: viewer, Ttl: durationpb.New(time.Hour)}}, newer, tok), 200)
	newest := &iam.ListGroupInvitesResponse{}
	a = e.call(rpcInvites+"ListGroupInvites", &iam.ListGroupInvitesRequest{Uidp: uidpChildren(group.Uid)}, newest, tok)
	judge(t, "ListGroupInvites (default order)", a, 200)
	if a.err == nil && len(newest.GetGroupInvites()) > 0 && newer.GetUid() != "" && newest.GetGroupInvites()[0].GetUid() != newer.GetUid() {
		t.Errorf("ListGroupInvites without order_by: first %s, want the newest %s (created_at desc)", newest.GetGroupInvites()[0].GetUid(), newer.GetUid())
	}
	judge(t, "GetGroupInvite", e.call(rpcInvites+"GetGroupInvite", &iam.GetGroupInviteRequest{Uid: invite.GetUid()}, &iam.GroupInvite{}, tok), 200)
	judge(t, "ListGroupInvites (key_id)", e.call(rpcInvites+"ListGroupInvites", &iam.ListGroupInvitesRequest{Uidp: uidpChildren(group.Uid), KeyId: invite.GetKeyId()}, &iam.ListGroupInvitesResponse{}, tok), 200)
	judge(t, "DeleteGroupInvite", e.call(rpcInvites+"DeleteGroupInvite", &iam.DeleteGroupInviteRequest{Uid: invite.GetUid()}, &emptypb.Empty{}, tok), 200)

	// Account associations.
	const rpcAssocs = "/chainguard.platform.iam.v2beta1.AccountAssociationsService/"
	judge(t, "CreateAccountAssociation", e.call(rpcAssocs+"CreateAccountAssociation", &iam.CreateAccountAssociationRequest{Parent: group.Uid,
		AccountAssociation: &iam.AccountAssociation{Name: "accounts", Amazon: &iam.AccountAssociation_Amazon{Account: "123456789012"},
			Google: &iam.AccountAssociation_Google{ProjectId: "1project-id", ProjectNumber: "123456"}}}, &iam.AccountAssociation{}, tok), 200)
	judge(t, "GetAccountAssociation", e.call(rpcAssocs+"GetAccountAssociation", &iam.GetAccountAssociationRequest{Uid: group.Uid}, &iam.AccountAssociation{}, tok), 200)
	judge(t, "ListAccountAssociations", e.call(rpcAssocs+"ListAccountAssociations", &iam.ListAccountAssociationsRequest{Uidp: &commonUIDP{DescendantsOf: e.root}}, &iam.ListAccountAssociationsResponse{}, tok), 200)
	judge(t, "UpdateAccountAssociation (update_mask amazon)", e.call(rpcAssocs+"UpdateAccountAssociation", &iam.UpdateAccountAssociationRequest{
		AccountAssociation: &iam.AccountAssociation{Uid: group.Uid, Amazon: &iam.AccountAssociation_Amazon{Account: "210987654321"}}, UpdateMask: mask("amazon")}, &iam.AccountAssociation{}, tok), 200)
	// A leaf inside a block (corrections 15): that member changes, the rest of the block stays.
	leaf := &iam.AccountAssociation{}
	judge(t, "UpdateAccountAssociation (update_mask google.project_id)", e.call(rpcAssocs+"UpdateAccountAssociation", &iam.UpdateAccountAssociationRequest{
		AccountAssociation: &iam.AccountAssociation{Uid: group.Uid, Google: &iam.AccountAssociation_Google{ProjectId: "2project-id"}}, UpdateMask: mask("google.project_id")}, leaf, tok), 200)
	if g := leaf.GetGoogle(); g.GetProjectId() != "2project-id" || g.GetProjectNumber() != "123456" {
		t.Errorf("UpdateAccountAssociation (update_mask google.project_id): want google {2project-id, 123456}, got %v", g)
	}
	judge(t, "DeleteAccountAssociation", e.call(rpcAssocs+"DeleteAccountAssociation", &iam.DeleteAccountAssociationRequest{Uid: group.Uid}, &emptypb.Empty{}, tok), 200)
	judge(t, "DeleteAccountAssociation (missing: idempotent)", e.call(rpcAssocs+"DeleteAccountAssociation", &iam.DeleteAccountAssociationRequest{Uid: group.Uid}, &emptypb.Empty{}, tok), 200)

	// Registry and advisories.
	repos := &registry.ListReposResponse{}
	judge(t, "ListRepos", e.call("/chainguard.platform.registry.v2beta1.ReposService/ListRepos", &registry.ListReposRequest{PageSize: 5}, repos, tok), 200)
	for _, r := range repos.GetRepos()[:min(1, len(repos.GetRepos()))] {
		judge(t, "GetRepo", e.call("/chainguard.platform.registry.v2beta1.ReposService/GetRepo", &registry.GetRepoRequest{Uid: r.GetUid()}, &registry.Repo{}, tok), 200)
		tags := &registry.ListTagsResponse{}
		judge(t, "ListTags", e.call("/chainguard.platform.registry.v2beta1.TagsService/ListTags", &registry.ListTagsRequest{Uidp: uidpChildren(r.GetUid())}, tags, tok), 200)
		for _, tag := range tags.GetTags()[:min(1, len(tags.GetTags()))] {
			judge(t, "GetTag", e.call("/chainguard.platform.registry.v2beta1.TagsService/GetTag", &registry.GetTagRequest{Uid: tag.GetUid()}, &registry.Tag{}, tok), 200)
		}
	}
	// A repository of our own with two tags: the name, digest and updated_since filters.
	seeded := e.seedRepo(t, group.Uid)
	if seeded != "" {
		named := &registry.ListReposResponse{}
		a := e.call("/chainguard.platform.registry.v2beta1.ReposService/ListRepos", &registry.ListReposRequest{Uidp: uidpChildren(group.Uid), Name: proto.String("contract-repo")}, named, tok)
		judge(t, "ListRepos (name)", a, 200)
		if a.err == nil && len(named.GetRepos()) != 1 {
			t.Errorf("ListRepos name=contract-repo: %d repos, want 1; %s", len(named.GetRepos()), a)
		}
		byDigest := &registry.ListTagsResponse{}
		a = e.call("/chainguard.platform.registry.v2beta1.TagsService/ListTags", &registry.ListTagsRequest{Uidp: uidpChildren(seeded), Digest: contractDigest}, byDigest, tok)
		judge(t, "ListTags (digest)", a, 200)
		if len(byDigest.GetTags()) != 1 || byDigest.GetTags()[0].GetName() != "v1" {
			t.Errorf("ListTags digest=%s: %d tags, want the one tag v1; %s", contractDigest, len(byDigest.GetTags()), a)
		}
		later := &registry.ListTagsResponse{}
		a = e.call("/chainguard.platform.registry.v2beta1.TagsService/ListTags", &registry.ListTagsRequest{Uidp: uidpChildren(seeded),
			UpdatedSince: timestamppb.New(time.Now().Add(24 * time.Hour))}, later, tok)
		judge(t, "ListTags (updated_since)", a, 200)
		if len(later.GetTags()) != 0 {
			t.Errorf("ListTags updated_since=tomorrow: %d tags, want none; %s", len(later.GetTags()), a)
		}
	}
	advisories := &vulns.ListAdvisoriesResponse{}
	judge(t, "ListAdvisories", e.call("/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/ListAdvisories", &vulns.ListAdvisoriesRequest{PageSize: 5}, advisories, tok), 200)
	for _, adv := range advisories.GetAdvisories()[:min(1, len(advisories.GetAdvisories()))] {
		judge(t, "GetAdvisory", e.call("/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/GetAdvisory", &vulns.GetAdvisoryRequest{Uid: adv.GetUid()}, &vulns.Advisory{}, tok), 200)
		filtered := &vulns.ListAdvisoriesResponse{}
		a := e.call("/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/ListAdvisories", &vulns.ListAdvisoriesRequest{AdvisoryIds: []string{adv.GetAdvisoryId()}}, filtered, tok)
		judge(t, "ListAdvisories (advisory_ids)", a, 200)
		if len(filtered.GetAdvisories()) != 1 {
			t.Errorf("ListAdvisories advisory_ids=%s: %d advisories, want 1; %s", adv.GetAdvisoryId(), len(filtered.GetAdvisories()), a)
		}
	}
	// Every advisory carries its component's location (REQUIRED at HEAD, corrections 18),
	// and the list filters by it.
	for _, adv := range advisories.GetAdvisories() {
		if adv.GetComponentLocation() == "" {
			t.Errorf("advisory %s answers no component_location", adv.GetAdvisoryId())
			continue
		}
		located := &vulns.ListAdvisoriesResponse{}
		a := e.call("/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/ListAdvisories", &vulns.ListAdvisoriesRequest{ComponentLocations: []string{adv.GetComponentLocation()}, AdvisoryIds: []string{adv.GetAdvisoryId()}}, located, tok)
		judge(t, "ListAdvisories (component_locations)", a, 200)
		if len(located.GetAdvisories()) != 1 {
			t.Errorf("ListAdvisories component_locations=%s: %d advisories, want 1", adv.GetComponentLocation(), len(located.GetAdvisories()))
		}
		elsewhere := &vulns.ListAdvisoriesResponse{}
		judge(t, "ListAdvisories (component_locations, none)", e.call("/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/ListAdvisories", &vulns.ListAdvisoriesRequest{ComponentLocations: []string{"/nowhere"}, AdvisoryIds: []string{adv.GetAdvisoryId()}}, elsewhere, tok), 200)
		if len(elsewhere.GetAdvisories()) != 0 {
			t.Errorf("ListAdvisories component_locations=/nowhere: %d advisories, want 0", len(elsewhere.GetAdvisories()))
		}
	}

	// Errors: google.rpc.Status with typed details, each with its code.
	errorCase := func(what string, a reply, status int, code int32) {
		t.Helper()
		judge(t, what, a, status)
		if a.rpcStatus != nil && a.rpcStatus.GetCode() != code {
			t.Errorf("%s: code %d, want %d; %s", what, a.rpcStatus.GetCode(), code, a)
		}
	}
	errorCase("GetGroup (bad uid)", e.call(rpcGroups+"GetGroup", &iam.GetGroupRequest{Uid: "not-a-uid!"}, &iam.Group{}, tok), 400, 3)
	errorCase("GetGroup (not found)", e.call(rpcGroups+"GetGroup", &iam.GetGroupRequest{Uid: group.Uid + "/00000000000000ff"}, &iam.Group{}, tok), 404, 5)
	// A name follows the specification's pattern and HEAD's "Must be 3-63 characters"
	// (corrections 17): outside either is INVALID_ARGUMENT.
	errorCase("CreateGroup (name outside the pattern)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: "Not Valid!"}}, &iam.Group{}, tok), 400, 3)
	errorCase("CreateGroup (name of 2 characters)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: "ab"}}, &iam.Group{}, tok), 400, 3)
	errorCase("CreateGroup (name of 64 characters)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: strings.Repeat("a", 64)}}, &iam.Group{}, tok), 400, 3)
	errorCase("CreateIdentity (name of 2 characters)", e.call("/chainguard.platform.iam.v2beta1.IdentitiesService/CreateIdentity", &iam.CreateIdentityRequest{Parent: group.Uid, Identity: &iam.Identity{Name: "ab",
		Relationship: &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://issuer.example"}, Sub: &iam.Identity_ClaimMatch_Subject{Subject: "s"}}}}}, &iam.Identity{}, tok), 400, 3)
	judge(t, "CreateGroup (name of 63 characters)", e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: strings.Repeat("a", 63)}}, &iam.Group{}, tok), 200)
	errorCase("DeleteGroup (children: RESOURCE_NOT_EMPTY)", e.call(rpcGroups+"DeleteGroup", &iam.DeleteGroupRequest{Uid: group.Uid}, &emptypb.Empty{}, tok), 400, 9)
	errorCase("GetGroup (no token)", e.call(rpcGroups+"GetGroup", &iam.GetGroupRequest{Uid: group.Uid}, &iam.Group{}, ""), 401, 16)
	viewerToken := e.tokenFor(t, identity.GetUid())
	if viewerToken != "" {
		a := e.call(rpcGroups+"CreateGroup", &iam.CreateGroupRequest{Parent: group.Uid, Group: &iam.Group{Name: "nope"}}, &iam.Group{}, viewerToken)
		errorCase("CreateGroup (no grant: PERMISSION_DENIED)", a, 403, 7)
		if a.rpcStatus != nil && !strings.Contains(a.rpcStatus.GetMessage(), "CAP_IAM_GROUPS_CREATE") {
			t.Errorf("CreateGroup refused: the message %q does not name the capability CAP_IAM_GROUPS_CREATE", a.rpcStatus.GetMessage())
		}
	}
	judge(t, "DeleteRole", e.call(rpcRoles+"DeleteRole", &iam.DeleteRoleRequest{Uid: role.GetUid()}, &emptypb.Empty{}, tok), 200)
	judge(t, "DeleteRoleBinding (second)", e.call(rpcBindings+"DeleteRoleBinding", &iam.DeleteRoleBindingRequest{Uid: second.GetUid()}, &emptypb.Empty{}, tok), 200)
	judge(t, "DeleteIdentity", e.call(rpcIds+"DeleteIdentity", &iam.DeleteIdentityRequest{Uid: other.GetUid()}, &emptypb.Empty{}, tok), 200)
	judge(t, "DeleteGroup (leaf)", e.call(rpcGroups+"DeleteGroup", &iam.DeleteGroupRequest{Uid: child.GetUid()}, &emptypb.Empty{}, tok), 200)
}

const contractDigest = "sha256:1111111111111111111111111111111111111111111111111111111111111111"

// seedRepo makes a repository with tags v1 and v2 under parent (the emulator's test control).
func (e *emulator) seedRepo(t *testing.T, parent string) string {
	body, _ := json.Marshal(map[string]any{"repos": []any{map[string]any{
		"parentUid": parent, "name": "contract-repo",
		"tags": []any{
			map[string]any{"name": "v1", "digest": contractDigest},
			map[string]any{"name": "v2", "digest": "sha256:" + strings.Repeat("2", 64)},
		},
	}}})
	res, err := http.Post(e.url+"/emulator/seed", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Errorf("/emulator/seed: %v", err)
		return ""
	}
	defer res.Body.Close()
	var out struct{ Repos []string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out.Repos) != 1 {
		t.Errorf("/emulator/seed answered %d without the repo", res.StatusCode)
		return ""
	}
	return out.Repos[0]
}

func uidsOf(groups []*iam.Group) map[string]bool {
	out := map[string]bool{}
	for _, g := range groups {
		out[g.GetUid()] = true
	}
	return out
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func hasFound(found []Found, path, value string) bool {
	for _, f := range found {
		if f.Path == path && f.Value == value {
			return true
		}
	}
	return false
}

// oidcToken asks the emulator's own issuer for an id token of subject.
func (e *emulator) oidcToken(t *testing.T, subject string) string {
	return e.oidcTokenFor(t, subject, "")
}

// oidcTokenFor asks for an id token of subject for audience ("" for the issuer's default).
func (e *emulator) oidcTokenFor(t *testing.T, subject, audience string) string {
	request := map[string]any{"subject": subject}
	if audience != "" {
		request["audience"] = audience
	}
	body, _ := json.Marshal(request)
	res, err := http.Post(e.url+"/oidc/token", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Errorf("/oidc/token: %v", err)
		return ""
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	for _, key := range []string{"id_token", "idToken", "token", "access_token"} {
		if v, ok := out[key].(string); ok && v != "" {
			return v
		}
	}
	t.Errorf("/oidc/token answered %d without a token", res.StatusCode)
	return ""
}

// tokenFor asks the emulator's test control for a token of an identity (viewer on its group).
func (e *emulator) tokenFor(t *testing.T, identity string) string {
	body, _ := json.Marshal(map[string]any{"identityUid": identity})
	res, err := http.Post(e.url+"/emulator/tokens", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Errorf("/emulator/tokens: %v", err)
		return ""
	}
	defer res.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.Token == "" {
		t.Errorf("/emulator/tokens answered %d without a token", res.StatusCode)
	}
	return out.Token
}

// checkBuiltInRoles: the built-in roles' sets, on the pinned subset, are the module's.
func checkBuiltInRoles(t *testing.T, roles *iam.ListRolesResponse, head []Found) {
	t.Helper()
	sets := builtInRoleSets()
	got := map[string][]string{}
	index := map[string]string{}
	for i, r := range roles.GetRoles() {
		index[fmt.Sprintf("roles[%d]", i)] = r.GetName()
		if _, builtIn := sets[r.GetName()]; !builtIn || strings.Contains(r.GetUid(), "/") {
			continue
		}
		for _, c := range r.GetCapabilities() {
			if pinned(c.String()) {
				got[r.GetName()] = append(got[r.GetName()], c.String())
			}
		}
	}
	// HEAD's values were taken out before the strict decode: put the pinned ones back.
	for _, f := range head {
		name := index[strings.SplitN(f.Path, ".", 2)[0]]
		var value string
		_ = json.Unmarshal([]byte(f.Value), &value)
		if pinned(value) && name != "" {
			got[name] = append(got[name], value)
		}
	}
	for name, want := range sets {
		if why := setDiff("built-in role "+name+" (pinned capabilities)", got[name], want); why != "" {
			t.Error(why)
		}
	}
}

type commonUIDP = commonUIDPFilter

func uidpChildren(uid string) *commonUIDP { return &commonUIDP{ChildrenOf: uid} }

func mask(paths ...string) *fieldmaskpb.FieldMask { return &fieldmaskpb.FieldMask{Paths: paths} }

func capsOf(names ...string) []capability {
	out := make([]capability, 0, len(names))
	for _, n := range names {
		out = append(out, capability(capabilityValue[n]))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

type (
	commonUIDPFilter = common.UIDPFilter
	capability       = capabilities.Capability
)

var capabilityValue = capabilities.Capability_value
