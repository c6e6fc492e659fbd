package contract

// The real front door: the official grpc-gateway handlers of v0.1.57 over recording
// implementations of the official service interfaces. A strict JSON marshaler refuses an
// unknown body key; the recorders refuse a query key that names no field of the request.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	capabilities "chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vulns "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	iamv1 "chainguard.dev/sdk/proto/platform/iam/v1"
	oidc "chainguard.dev/sdk/proto/platform/oidc/v1"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/grpc-ecosystem/grpc-gateway/v2/utilities"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// Recorded is one RPC the gateway handed to a recorder.
type Recorded struct {
	Label       string
	HTTPMethod  string
	Path        string
	ContentType string
	RPC         string
	Request     proto.Message
	Head        []Found
	Problems    []string
	// Query is the raw query of a request outside the API (the GitHub Actions token).
	Query string
}

// githubOIDC is the RPC name the front door records a GitHub Actions token request under.
const githubOIDC = "github-actions-oidc"

// HTTPSeen is one HTTP request the front door answered.
type HTTPSeen struct {
	Label, Method, Path, Query string
	Status                     int
	Error                      string
}

type frontDoor struct {
	mu     sync.Mutex
	label  string
	mux    *runtime.ServeMux
	calls  []Recorded
	seen   []HTTPSeen
	store  map[string]proto.Message
	counts int
	// Of the request being served (requests are served one at a time).
	curKeys        []string
	curMethod      string
	curPath        string
	curContentType string
	curHead        []Found
	curBody        protoreflect.MessageDescriptor
	curProblems    []string
}

// strictJSON is the gateway's JSON marshaler with unknown body keys refused; HEAD's
// additions are taken out first (and recorded) since v0.1.57's messages cannot hold them.
type strictJSON struct {
	runtime.JSONPb
	door *frontDoor
}

func (s *strictJSON) NewDecoder(r io.Reader) runtime.Decoder {
	return runtime.DecoderFunc(func(v any) error {
		text, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(text)) == 0 {
			return io.EOF
		}
		m, ok := v.(proto.Message)
		if !ok {
			rv := reflect.ValueOf(v)
			if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Pointer {
				return fmt.Errorf("cannot decode into %T", v)
			}
			if rv.Elem().IsNil() {
				rv.Elem().Set(reflect.New(rv.Elem().Type().Elem()))
			}
			m = rv.Elem().Interface().(proto.Message)
		}
		found, err := DecodeStrict(text, m)
		if len(found) > 0 {
			s.door.curBody = m.ProtoReflect().Descriptor()
			s.door.curHead = append(s.door.curHead, found...)
		}
		return err
	})
}

// Marshal puts back into an answer the HEAD additions the request's body carried, when
// the answer is the object that body described (a create or update echoes them).
func (s *strictJSON) Marshal(v any) ([]byte, error) {
	text, err := s.JSONPb.Marshal(v)
	m, ok := v.(proto.Message)
	if err != nil || !ok || len(s.door.curHead) == 0 || s.door.curBody == nil ||
		m.ProtoReflect().Descriptor() != s.door.curBody {
		return text, err
	}
	var obj map[string]any
	if json.Unmarshal(text, &obj) != nil {
		return text, nil
	}
	for _, f := range s.door.curHead {
		var value any
		_ = json.Unmarshal([]byte(f.Value), &value)
		putBack(s.door.curBody, obj, strings.Split(f.Path, "."), value)
	}
	return json.Marshal(obj)
}

// putBack sets a HEAD addition at a proto path of a JSON object (appending to a list).
func putBack(md protoreflect.MessageDescriptor, obj map[string]any, path []string, value any) {
	name := path[0]
	key := name
	var next protoreflect.MessageDescriptor
	if fd := md.Fields().ByName(protoreflect.Name(name)); fd != nil {
		key, next = fd.JSONName(), fd.Message()
		if len(path) == 1 && fd.IsList() {
			list, _ := obj[key].([]any)
			obj[key] = append(list, value)
			return
		}
	} else if add := headField(string(md.FullName()), name); add != nil {
		key = add.JSON
	}
	if len(path) == 1 {
		obj[key] = value
		return
	}
	child, _ := obj[key].(map[string]any)
	if child == nil {
		child = map[string]any{}
		obj[key] = child
	}
	if next != nil {
		putBack(next, child, path[1:], value)
	}
}

func newFrontDoor() *frontDoor {
	d := &frontDoor{store: map[string]proto.Message{}}
	marshaler := &strictJSON{door: d, JSONPb: runtime.JSONPb{
		UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: false},
	}}
	d.mux = runtime.NewServeMux(runtime.WithMarshalerOption(runtime.MIMEWildcard, marshaler))
	ctx := context.Background()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(iam.RegisterGroupsServiceHandlerServer(ctx, d.mux, &groups{d: d}))
	must(iam.RegisterIdentitiesServiceHandlerServer(ctx, d.mux, &identities{d: d}))
	must(iam.RegisterRolesServiceHandlerServer(ctx, d.mux, &roles{d: d}))
	must(iam.RegisterRoleBindingsServiceHandlerServer(ctx, d.mux, &bindings{d: d}))
	must(iam.RegisterIdentityProvidersServiceHandlerServer(ctx, d.mux, &idps{d: d}))
	must(iam.RegisterGroupInvitesServiceHandlerServer(ctx, d.mux, &invites{d: d}))
	must(iam.RegisterAccountAssociationsServiceHandlerServer(ctx, d.mux, &assocs{d: d}))
	must(registry.RegisterReposServiceHandlerServer(ctx, d.mux, &repos{d: d}))
	must(registry.RegisterTagsServiceHandlerServer(ctx, d.mux, &tags{d: d}))
	must(vulns.RegisterAdvisoriesServiceHandlerServer(ctx, d.mux, &advisories{d: d}))
	must(oidc.RegisterSecurityTokenServiceHandlerServer(ctx, d.mux, &sts{d: d}))
	must(iamv1.RegisterGroupsHandlerServer(ctx, d.mux, &v1groups{d: d}))
	must(d.routeIdentityProviderList(&idps{d: d}))
	return d
}

// routeIdentityProviderList: v0.1.57's generated routing registers GetIdentityProvider
// ({uid=**}, which also matches zero segments) after ListIdentityProviders, and the
// gateway tries the last registered first, so GET /iam/v2beta1/identityProviders would
// reach GetIdentityProvider with an empty uid. This routes that one path to the List RPC,
// filling its request from the query as the generated code does for every other List.
func (d *frontDoor) routeIdentityProviderList(server iam.IdentityProvidersServiceServer) error {
	const rpc = "/chainguard.platform.iam.v2beta1.IdentityProvidersService/ListIdentityProviders"
	return d.mux.HandlePath("GET", "/iam/v2beta1/identityProviders", func(w http.ResponseWriter, r *http.Request, _ map[string]string) {
		_, outbound := runtime.MarshalerForRequest(d.mux, r)
		ctx, err := runtime.AnnotateIncomingContext(r.Context(), d.mux, r, rpc, runtime.WithHTTPPathPattern("/iam/v2beta1/identityProviders"))
		if err != nil {
			runtime.HTTPError(ctx, d.mux, outbound, w, r, err)
			return
		}
		var req iam.ListIdentityProvidersRequest
		if err := r.ParseForm(); err == nil {
			err = runtime.PopulateQueryParameters(&req, r.Form, utilities.NewDoubleArray(nil))
		}
		if err != nil {
			runtime.HTTPError(ctx, d.mux, outbound, w, r, status.Errorf(codes.InvalidArgument, "%v", err))
			return
		}
		resp, err := server.ListIdentityProviders(ctx, &req)
		if err != nil {
			runtime.HTTPError(ctx, d.mux, outbound, w, r, err)
			return
		}
		runtime.ForwardResponseMessage(ctx, d.mux, outbound, w, r, resp)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }
func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status >= 400 && w.body.Len() < 2000 {
		w.body.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// ServeHTTP serves the driver: POST /_contract/label names the operation that follows;
// everything else goes through the gateway, one request at a time.
func (d *frontDoor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r.URL.Path == "/_contract/label" {
		b, _ := io.ReadAll(r.Body)
		d.label = string(b)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if r.URL.Path == "/_contract/github-oidc" {
		// Stands in for GitHub's OIDC token endpoint: records the audience asked for.
		d.calls = append(d.calls, Recorded{Label: d.label, HTTPMethod: r.Method, Path: r.URL.Path,
			RPC: githubOIDC, Query: r.URL.RawQuery})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]string{"value": fakeJWT()})
		return
	}
	d.curKeys, d.curHead, d.curProblems, d.curBody = nil, nil, nil, nil
	d.curMethod, d.curPath, d.curContentType = r.Method, r.URL.Path, r.Header.Get("Content-Type")
	for k := range r.URL.Query() {
		d.curKeys = append(d.curKeys, k)
	}
	if strings.HasPrefix(d.curContentType, "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err == nil {
			for k := range r.PostForm {
				d.curKeys = append(d.curKeys, k)
			}
		}
	}
	d.stripBody(r)
	sw := &statusWriter{ResponseWriter: w, status: 200}
	d.mux.ServeHTTP(sw, r)
	d.seen = append(d.seen, HTTPSeen{Label: d.label, Method: r.Method, Path: r.URL.Path,
		Query: r.URL.RawQuery, Status: sw.status, Error: strings.TrimSpace(sw.body.String())})
}

// bodyMessages are the resource messages the IAM creates and updates carry as their body.
var bodyMessages = map[string]protoreflect.MessageDescriptor{
	"groups":              (&iam.Group{}).ProtoReflect().Descriptor(),
	"identities":          (&iam.Identity{}).ProtoReflect().Descriptor(),
	"roles":               (&iam.Role{}).ProtoReflect().Descriptor(),
	"roleBindings":        (&iam.RoleBinding{}).ProtoReflect().Descriptor(),
	"identityProviders":   (&iam.IdentityProvider{}).ProtoReflect().Descriptor(),
	"groupInvites":        (&iam.GroupInvite{}).ProtoReflect().Descriptor(),
	"accountAssociations": (&iam.AccountAssociation{}).ProtoReflect().Descriptor(),
}

// stripBody takes HEAD's additions out of a create or update body before the gateway
// reads it: besides the decode, an update without a mask query builds its mask from the
// raw body (FieldMaskFromRequestBody), which refuses a field v0.1.57 lacks.
func (d *frontDoor) stripBody(r *http.Request) {
	if (r.Method != "POST" && r.Method != "PATCH") || !strings.HasPrefix(d.curContentType, "application/json") {
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/iam/v2beta1/"), "/", 2)
	md, ok := bodyMessages[parts[0]]
	if !ok || !strings.HasPrefix(r.URL.Path, "/iam/v2beta1/") {
		return
	}
	text, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if dec.Decode(&v) == nil {
		found, problems := StripHead(md, v, "")
		if len(found) > 0 {
			d.curHead, d.curBody = append(d.curHead, found...), md
			d.curProblems = append(d.curProblems, problems...)
			text, _ = json.Marshal(v)
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(text))
	r.ContentLength = int64(len(text))
}

// record notes the RPC and its request, judging its query keys and mask paths.
func (d *frontDoor) record(ctx context.Context, req proto.Message) {
	rpc, _ := runtime.RPCMethod(ctx)
	md := req.ProtoReflect().Descriptor()
	problems := append([]string(nil), d.curProblems...)
	for _, key := range d.curKeys {
		if !ResolvesField(md, key, true) {
			problems = append(problems, fmt.Sprintf("query key %q names no field of %s (the gateway ignores it silently)", key, md.FullName()))
		}
	}
	if fm, ok := fieldOf(req, "update_mask").(*fieldmaskpb.FieldMask); ok && fm != nil {
		body := bodyMessage(md)
		for _, p := range fm.GetPaths() {
			if p == "*" || ResolvesField(body, p, false) || headMaskPath(body, p) {
				continue
			}
			problems = append(problems, fmt.Sprintf("update_mask path %q names no field of %s by its proto name", p, body.FullName()))
		}
	}
	d.calls = append(d.calls, Recorded{Label: d.label, HTTPMethod: d.curMethod, Path: d.curPath,
		ContentType: d.curContentType, RPC: rpc, Request: proto.Clone(req), Head: d.curHead, Problems: problems})
}

func headMaskPath(md protoreflect.MessageDescriptor, p string) bool {
	for _, h := range HeadMaskPaths[string(md.FullName())] {
		if h == p {
			return true
		}
	}
	return false
}

// bodyMessage is the resource message an Update request carries.
func bodyMessage(md protoreflect.MessageDescriptor) protoreflect.MessageDescriptor {
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		f := fs.Get(i)
		if f.Message() != nil && f.Name() != "update_mask" {
			return f.Message()
		}
	}
	return md
}

func fieldOf(m proto.Message, name string) any {
	fd := m.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(name))
	if fd == nil || !m.ProtoReflect().Has(fd) {
		return nil
	}
	v := m.ProtoReflect().Get(fd)
	if fd.Message() != nil {
		return v.Message().Interface()
	}
	return v.Interface()
}

var fixedTime = timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))

// answer records the call and makes a plausible, valid answer of type R.
func answer[R proto.Message](d *frontDoor, ctx context.Context, req proto.Message) (R, error) {
	d.record(ctx, req)
	var zero R
	resp := zero.ProtoReflect().Type().New().Interface()
	name := string(req.ProtoReflect().Descriptor().Name())
	switch {
	case strings.HasPrefix(name, "Get"):
		uid, _ := fieldOf(req, "uid").(string)
		if stored, ok := d.store[uid]; ok && stored.ProtoReflect().Descriptor() == resp.ProtoReflect().Descriptor() {
			return proto.Clone(stored).(R), nil
		}
		plausible(resp, uid)
	case strings.HasPrefix(name, "Create"):
		parent, _ := fieldOf(req, "parent").(string)
		proto.Merge(resp, fieldOf(req, string(bodyField(req))).(proto.Message))
		uid := d.childUID(parent)
		if _, ok := resp.(*iam.AccountAssociation); ok {
			uid = parent
		}
		created(resp, uid, parent)
		d.store[uid] = proto.Clone(resp)
	case strings.HasPrefix(name, "Update"):
		body := fieldOf(req, string(bodyField(req))).(proto.Message)
		uid, _ := fieldOf(body, "uid").(string)
		// Each update answers from a plausible object of the body's kind, never from what
		// an earlier operation left, so no operation depends on another.
		plausible(resp, uid)
		if identity, ok := body.(*iam.Identity); ok {
			sameKind(resp.(*iam.Identity), identity)
		}
		overlay(resp, body)
		created(resp, uid, parentOf(uid))
	case strings.HasPrefix(name, "List"):
		d.listAnswer(req, resp)
	case strings.HasPrefix(name, "Delete"):
		// Empty.
	case name == "ExchangeRequest":
		resp.(*oidc.RawToken).Token = fakeJWT()
	}
	return resp.(R), nil
}

// listAnswer answers a List with one plausible item that matches its filters (so the
// SDK's checks of scope and filters, and the lookups' "exactly one", can pass).
func (d *frontDoor) listAnswer(req, resp proto.Message) {
	var items protoreflect.FieldDescriptor
	fs := resp.ProtoReflect().Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		if f := fs.Get(i); f.IsList() && f.Message() != nil {
			items = f
		}
	}
	if items == nil {
		return
	}
	str := func(path string) string { v, _ := valueAt(req, path).(string); return v }
	first := func(field string) string {
		fd := req.ProtoReflect().Descriptor().Fields().ByName(protoreflect.Name(field))
		if fd == nil || !fd.IsList() || req.ProtoReflect().Get(fd).List().Len() == 0 {
			return ""
		}
		return req.ProtoReflect().Get(fd).List().Get(0).String()
	}
	parent := str("uidp.children_of")
	if parent == "" {
		parent = str("uidp.descendants_of")
	}
	if parent == "" {
		parent = str("group")
	}
	if parent == "" {
		parent = groupUID
	}
	uid := d.childUID(parent)
	item := resp.ProtoReflect().Get(items).List().NewElement().Message().Interface()
	switch item.(type) {
	case *vulns.Advisory:
		uid = advisoryUID
	case *iam.Role:
		if str("uidp.children_of") == "" {
			uid = viewerRole
		}
	}
	plausible(item, uid)
	if n := str("name"); n != "" {
		if fd := item.ProtoReflect().Descriptor().Fields().ByName("name"); fd != nil {
			item.ProtoReflect().Set(fd, protoreflect.ValueOfString(n))
		}
	}
	switch o := item.(type) {
	case *iam.Identity:
		sameKindOf(o, req.(*iam.ListIdentitiesRequest).GetRelationshipType())
	case *iam.RoleBinding:
		if v := str("identity"); v != "" {
			o.Identity.Uid = v
		}
		if v := str("role"); v != "" {
			o.Role.Uid = v
		}
	case *iam.GroupInvite:
		if v := str("key_id"); v != "" {
			o.KeyId = v
		}
	case *vulns.Advisory:
		if v := first("advisory_ids"); v != "" {
			o.AdvisoryId = v
		}
		if v := first("artifact_names"); v != "" {
			o.ArtifactName = v
		}
		o.ComponentName = first("component_names")
		if v := first("aliases"); v != "" {
			o.Aliases = []string{v}
		}
	}
	resp.ProtoReflect().Mutable(items).List().Append(protoreflect.ValueOfMessage(item.ProtoReflect()))
	if fd := fs.ByName("total_count"); fd != nil {
		resp.ProtoReflect().Set(fd, protoreflect.ValueOfInt64(1))
	}
}

// sameKindOf gives a plausible identity the kind a relationship_type filter names.
func sameKindOf(o *iam.Identity, kind iam.RelationshipType) {
	switch kind {
	case iam.RelationshipType_RELATIONSHIP_TYPE_STATIC:
		sameKind(o, &iam.Identity{Relationship: &iam.Identity_StaticKeys_{StaticKeys: &iam.Identity_StaticKeys{}}})
	case iam.RelationshipType_RELATIONSHIP_TYPE_AWS_IDENTITY:
		sameKind(o, &iam.Identity{Relationship: &iam.Identity_AwsIdentity{AwsIdentity: &iam.Identity_AWSIdentity{}}})
	case iam.RelationshipType_RELATIONSHIP_TYPE_SERVICE_PRINCIPAL:
		o.Relationship = &iam.Identity_ServicePrincipal{ServicePrincipal: iam.ServicePrincipal_SERVICE_PRINCIPAL_INGESTER}
	}
}

func bodyField(req proto.Message) protoreflect.Name {
	fs := req.ProtoReflect().Descriptor().Fields()
	for i := 0; i < fs.Len(); i++ {
		if f := fs.Get(i); f.Message() != nil && f.Name() != "update_mask" {
			return f.Name()
		}
	}
	return ""
}

// overlay copies every field set in src over dst (lists and maps replaced, not appended).
func overlay(dst, src proto.Message) {
	s := src.ProtoReflect()
	t := dst.ProtoReflect()
	s.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Message() != nil && !fd.IsList() && !fd.IsMap() && t.Has(fd) && !strings.HasPrefix(string(fd.Message().FullName()), "google.protobuf.") {
			overlay(t.Mutable(fd).Message().Interface(), v.Message().Interface())
			return true
		}
		t.Set(fd, v)
		return true
	})
}

func (d *frontDoor) childUID(parent string) string {
	d.counts++
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s#%d", parent, d.counts)))
	if parent == "" {
		// A root organisation (CreateGroup without a parent): a flat 40-hex uid.
		return hex.EncodeToString(sum[:20])
	}
	return parent + "/" + hex.EncodeToString(sum[:8])
}

func parentOf(uid string) string {
	if i := strings.LastIndex(uid, "/"); i >= 0 {
		return uid[:i]
	}
	return ""
}

// created sets what the service sets on a stored object: uid and times, the hydrated
// parts of a role binding, an invite's key and code.
func created(m proto.Message, uid, parent string) {
	switch o := m.(type) {
	case *iam.Group:
		o.Uid, o.CreateTime, o.UpdateTime = uid, fixedTime, fixedTime
	case *iam.Identity:
		o.Uid, o.CreateTime, o.UpdateTime = uid, fixedTime, fixedTime
		if sk := o.GetStaticKeys(); sk != nil && sk.ExpirationTime == nil {
			sk.ExpirationTime = timestamppb.New(fixedTime.AsTime().AddDate(1, 0, 0))
		}
	case *iam.Role:
		o.Uid, o.CreateTime, o.UpdateTime = uid, fixedTime, fixedTime
	case *iam.RoleBinding:
		o.Uid, o.CreateTime = uid, fixedTime
		if o.IdentityUid != "" {
			o.Identity = &iam.RoleBindingIdentity{Uid: o.IdentityUid, Name: "contract-identity"}
		}
		if o.RoleUid != "" {
			o.Role = &iam.RoleBindingRole{Uid: o.RoleUid, Name: "viewer"}
		}
		o.Group = &iam.RoleBindingGroup{Uid: parent, Name: "contract-group"}
		o.IdentityUid, o.RoleUid = "", ""
	case *iam.IdentityProvider:
		o.Uid, o.CreateTime, o.UpdateTime = uid, fixedTime, fixedTime
		if o.GetOidc() != nil {
			o.GetOidc().ClientSecret = ""
		}
	case *iam.GroupInvite:
		o.Uid, o.CreateTime = uid, fixedTime
		o.KeyId, o.Code = "contract-key-1", "contract-invite-code"
		o.ExpirationTime = timestamppb.New(fixedTime.AsTime().Add(time.Hour))
		o.Ttl = nil
	case *iam.AccountAssociation:
		o.Uid, o.CreateTime, o.UpdateTime = uid, fixedTime, fixedTime
	}
}

// plausible fills an object the service could answer for uid.
func plausible(m proto.Message, uid string) {
	switch o := m.(type) {
	case *iam.Group:
		o.Name, o.Description = "contract-group", "a group"
	case *iam.Identity:
		o.Name = "contract-identity"
		o.Relationship = &iam.Identity_ClaimMatch_{ClaimMatch: &iam.Identity_ClaimMatch{
			Iss: &iam.Identity_ClaimMatch_Issuer{Issuer: "https://token.example"},
			Sub: &iam.Identity_ClaimMatch_Subject{Subject: "ci"},
		}}
	case *iam.Role:
		o.Name = "contract-role"
		o.Capabilities = []capabilities.Capability{capabilities.Capability_CAP_IAM_GROUPS_LIST}
	case *iam.RoleBinding:
		o.Identity = &iam.RoleBindingIdentity{Uid: parentOf(uid) + "/1111111111111111", Name: "contract-identity"}
		o.Role = &iam.RoleBindingRole{Uid: viewerRole, Name: "viewer"}
	case *iam.IdentityProvider:
		o.Name, o.DefaultRole = "contract-idp", viewerRole
		o.Configuration = &iam.IdentityProvider_Oidc{Oidc: &iam.IdentityProvider_OIDC{
			Issuer: "https://login.example", ClientId: "client", AdditionalScopes: []string{"email"}}}
	case *iam.GroupInvite:
		o.RoleUid = viewerRole
	case *iam.AccountAssociation:
		o.Name = "contract-association"
		o.Amazon = &iam.AccountAssociation_Amazon{Account: "123456789012"}
	case *registry.Repo:
		o.Uid, o.Name, o.CreateTime, o.UpdateTime = uid, "contract-repo", fixedTime, fixedTime
	case *registry.Tag:
		o.Uid, o.Name, o.Digest = uid, "latest", "sha256:"+strings.Repeat("ab", 32)
		o.UpdateTime = fixedTime
	case *vulns.Advisory:
		o.Uid, o.AdvisoryId, o.CreateTime, o.UpdateTime = uid, "CGA-aaaa-bbbb-cccc", fixedTime, fixedTime
		o.ArtifactName = "nginx"
	}
	created(m, uid, parentOf(uid))
}

// sameKind gives a plausible identity the kind of relationship the update body names.
func sameKind(o, body *iam.Identity) {
	switch {
	case body.GetStaticKeys() != nil:
		o.Relationship = &iam.Identity_StaticKeys_{StaticKeys: &iam.Identity_StaticKeys{
			Issuer: "https://offline.example", Subject: "robot", IssuerKeys: `{"keys":[]}`,
			ExpirationTime: timestamppb.New(fixedTime.AsTime().AddDate(1, 0, 0))}}
	case body.GetAwsIdentity() != nil:
		o.Relationship = &iam.Identity_AwsIdentity{AwsIdentity: &iam.Identity_AWSIdentity{
			AwsAccount: "123456789012",
			AwsArn:     &iam.Identity_AWSIdentity_Arn{Arn: "arn:aws:iam::123456789012:role/ci"},
			AwsUserId:  &iam.Identity_AWSIdentity_UserId{UserId: "AROAEXAMPLE"}}}
	}
}

func fakeJWT() string {
	enc := base64.RawURLEncoding
	head, _ := json.Marshal(map[string]any{"alg": "RS256", "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{"iss": "contract", "sub": "contract", "exp": time.Now().Add(time.Hour).Unix(), "iat": time.Now().Unix()})
	return enc.EncodeToString(head) + "." + enc.EncodeToString(claims) + "." + enc.EncodeToString([]byte("signature"))
}

// The recording implementations of the official service interfaces.

type groups struct {
	iam.UnimplementedGroupsServiceServer
	d *frontDoor
}

func (s *groups) CreateGroup(c context.Context, r *iam.CreateGroupRequest) (*iam.Group, error) {
	return answer[*iam.Group](s.d, c, r)
}
func (s *groups) GetGroup(c context.Context, r *iam.GetGroupRequest) (*iam.Group, error) {
	return answer[*iam.Group](s.d, c, r)
}
func (s *groups) ListGroups(c context.Context, r *iam.ListGroupsRequest) (*iam.ListGroupsResponse, error) {
	return answer[*iam.ListGroupsResponse](s.d, c, r)
}
func (s *groups) UpdateGroup(c context.Context, r *iam.UpdateGroupRequest) (*iam.Group, error) {
	return answer[*iam.Group](s.d, c, r)
}
func (s *groups) DeleteGroup(c context.Context, r *iam.DeleteGroupRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type identities struct {
	iam.UnimplementedIdentitiesServiceServer
	d *frontDoor
}

func (s *identities) CreateIdentity(c context.Context, r *iam.CreateIdentityRequest) (*iam.Identity, error) {
	return answer[*iam.Identity](s.d, c, r)
}
func (s *identities) GetIdentity(c context.Context, r *iam.GetIdentityRequest) (*iam.Identity, error) {
	return answer[*iam.Identity](s.d, c, r)
}
func (s *identities) ListIdentities(c context.Context, r *iam.ListIdentitiesRequest) (*iam.ListIdentitiesResponse, error) {
	return answer[*iam.ListIdentitiesResponse](s.d, c, r)
}
func (s *identities) UpdateIdentity(c context.Context, r *iam.UpdateIdentityRequest) (*iam.Identity, error) {
	return answer[*iam.Identity](s.d, c, r)
}
func (s *identities) DeleteIdentity(c context.Context, r *iam.DeleteIdentityRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type roles struct {
	iam.UnimplementedRolesServiceServer
	d *frontDoor
}

func (s *roles) CreateRole(c context.Context, r *iam.CreateRoleRequest) (*iam.Role, error) {
	return answer[*iam.Role](s.d, c, r)
}
func (s *roles) GetRole(c context.Context, r *iam.GetRoleRequest) (*iam.Role, error) {
	return answer[*iam.Role](s.d, c, r)
}
func (s *roles) ListRoles(c context.Context, r *iam.ListRolesRequest) (*iam.ListRolesResponse, error) {
	return answer[*iam.ListRolesResponse](s.d, c, r)
}
func (s *roles) UpdateRole(c context.Context, r *iam.UpdateRoleRequest) (*iam.Role, error) {
	return answer[*iam.Role](s.d, c, r)
}
func (s *roles) DeleteRole(c context.Context, r *iam.DeleteRoleRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type bindings struct {
	iam.UnimplementedRoleBindingsServiceServer
	d *frontDoor
}

func (s *bindings) CreateRoleBinding(c context.Context, r *iam.CreateRoleBindingRequest) (*iam.RoleBinding, error) {
	return answer[*iam.RoleBinding](s.d, c, r)
}
func (s *bindings) GetRoleBinding(c context.Context, r *iam.GetRoleBindingRequest) (*iam.RoleBinding, error) {
	return answer[*iam.RoleBinding](s.d, c, r)
}
func (s *bindings) ListRoleBindings(c context.Context, r *iam.ListRoleBindingsRequest) (*iam.ListRoleBindingsResponse, error) {
	return answer[*iam.ListRoleBindingsResponse](s.d, c, r)
}
func (s *bindings) UpdateRoleBinding(c context.Context, r *iam.UpdateRoleBindingRequest) (*iam.RoleBinding, error) {
	return answer[*iam.RoleBinding](s.d, c, r)
}
func (s *bindings) DeleteRoleBinding(c context.Context, r *iam.DeleteRoleBindingRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type idps struct {
	iam.UnimplementedIdentityProvidersServiceServer
	d *frontDoor
}

func (s *idps) CreateIdentityProvider(c context.Context, r *iam.CreateIdentityProviderRequest) (*iam.IdentityProvider, error) {
	return answer[*iam.IdentityProvider](s.d, c, r)
}
func (s *idps) GetIdentityProvider(c context.Context, r *iam.GetIdentityProviderRequest) (*iam.IdentityProvider, error) {
	return answer[*iam.IdentityProvider](s.d, c, r)
}
func (s *idps) ListIdentityProviders(c context.Context, r *iam.ListIdentityProvidersRequest) (*iam.ListIdentityProvidersResponse, error) {
	return answer[*iam.ListIdentityProvidersResponse](s.d, c, r)
}
func (s *idps) UpdateIdentityProvider(c context.Context, r *iam.UpdateIdentityProviderRequest) (*iam.IdentityProvider, error) {
	return answer[*iam.IdentityProvider](s.d, c, r)
}
func (s *idps) DeleteIdentityProvider(c context.Context, r *iam.DeleteIdentityProviderRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type invites struct {
	iam.UnimplementedGroupInvitesServiceServer
	d *frontDoor
}

func (s *invites) CreateGroupInvite(c context.Context, r *iam.CreateGroupInviteRequest) (*iam.GroupInvite, error) {
	return answer[*iam.GroupInvite](s.d, c, r)
}
func (s *invites) GetGroupInvite(c context.Context, r *iam.GetGroupInviteRequest) (*iam.GroupInvite, error) {
	return answer[*iam.GroupInvite](s.d, c, r)
}
func (s *invites) ListGroupInvites(c context.Context, r *iam.ListGroupInvitesRequest) (*iam.ListGroupInvitesResponse, error) {
	return answer[*iam.ListGroupInvitesResponse](s.d, c, r)
}
func (s *invites) DeleteGroupInvite(c context.Context, r *iam.DeleteGroupInviteRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type assocs struct {
	iam.UnimplementedAccountAssociationsServiceServer
	d *frontDoor
}

func (s *assocs) CreateAccountAssociation(c context.Context, r *iam.CreateAccountAssociationRequest) (*iam.AccountAssociation, error) {
	return answer[*iam.AccountAssociation](s.d, c, r)
}
func (s *assocs) GetAccountAssociation(c context.Context, r *iam.GetAccountAssociationRequest) (*iam.AccountAssociation, error) {
	return answer[*iam.AccountAssociation](s.d, c, r)
}
func (s *assocs) ListAccountAssociations(c context.Context, r *iam.ListAccountAssociationsRequest) (*iam.ListAccountAssociationsResponse, error) {
	return answer[*iam.ListAccountAssociationsResponse](s.d, c, r)
}
func (s *assocs) UpdateAccountAssociation(c context.Context, r *iam.UpdateAccountAssociationRequest) (*iam.AccountAssociation, error) {
	return answer[*iam.AccountAssociation](s.d, c, r)
}
func (s *assocs) DeleteAccountAssociation(c context.Context, r *iam.DeleteAccountAssociationRequest) (*emptypb.Empty, error) {
	return answer[*emptypb.Empty](s.d, c, r)
}

type repos struct {
	registry.UnimplementedReposServiceServer
	d *frontDoor
}

func (s *repos) GetRepo(c context.Context, r *registry.GetRepoRequest) (*registry.Repo, error) {
	return answer[*registry.Repo](s.d, c, r)
}
func (s *repos) ListRepos(c context.Context, r *registry.ListReposRequest) (*registry.ListReposResponse, error) {
	return answer[*registry.ListReposResponse](s.d, c, r)
}

type tags struct {
	registry.UnimplementedTagsServiceServer
	d *frontDoor
}

func (s *tags) GetTag(c context.Context, r *registry.GetTagRequest) (*registry.Tag, error) {
	return answer[*registry.Tag](s.d, c, r)
}
func (s *tags) ListTags(c context.Context, r *registry.ListTagsRequest) (*registry.ListTagsResponse, error) {
	return answer[*registry.ListTagsResponse](s.d, c, r)
}

type advisories struct {
	vulns.UnimplementedAdvisoriesServiceServer
	d *frontDoor
}

func (s *advisories) GetAdvisory(c context.Context, r *vulns.GetAdvisoryRequest) (*vulns.Advisory, error) {
	return answer[*vulns.Advisory](s.d, c, r)
}
func (s *advisories) ListAdvisories(c context.Context, r *vulns.ListAdvisoriesRequest) (*vulns.ListAdvisoriesResponse, error) {
	return answer[*vulns.ListAdvisoriesResponse](s.d, c, r)
}

type sts struct {
	oidc.UnimplementedSecurityTokenServiceServer
	d *frontDoor
}

func (s *sts) Exchange(c context.Context, r *oidc.ExchangeRequest) (*oidc.RawToken, error) {
	return answer[*oidc.RawToken](s.d, c, r)
}

type v1groups struct {
	iamv1.UnimplementedGroupsServer
	d *frontDoor
}

func (s *v1groups) List(c context.Context, r *iamv1.GroupFilter) (*iamv1.GroupList, error) {
	return answer[*iamv1.GroupList](s.d, c, r)
}
