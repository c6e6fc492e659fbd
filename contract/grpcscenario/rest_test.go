package grpcscenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"google.golang.org/genproto/googleapis/api/annotations"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// restConn carries the official clients' calls over HTTP/1.1 instead of gRPC: each
// call becomes the request of its method's google.api.http rule (read from the
// module's descriptors), its JSON answer the reply. The scenario run through it is the
// HTTP run whose state is compared with the gRPC run's.
type restConn struct {
	base, token string
}

var _ grpc.ClientConnInterface = (*restConn)(nil)

var variable = regexp.MustCompile(`\{([a-z0-9_.]+)(=[^}]*)?\}`)

func (r *restConn) NewStream(context.Context, *grpc.StreamDesc, string, ...grpc.CallOption) (grpc.ClientStream, error) {
	return nil, status.Error(codes.Unimplemented, "no streams over HTTP")
}

func (r *restConn) Invoke(ctx context.Context, method string, args, reply any, _ ...grpc.CallOption) error {
	name := protoreflect.FullName(strings.ReplaceAll(strings.TrimPrefix(method, "/"), "/", "."))
	desc, err := protoregistry.GlobalFiles.FindDescriptorByName(name)
	if err != nil {
		return err
	}
	rule, _ := proto.GetExtension(desc.(protoreflect.MethodDescriptor).Options(), annotations.E_Http).(*annotations.HttpRule)
	if rule == nil {
		return status.Errorf(codes.Unimplemented, "%s has no HTTP rule", method)
	}
	verb, template := ruleOf(rule)
	in := proto.Clone(args.(proto.Message))
	bound := map[string]bool{}
	path := variable.ReplaceAllStringFunc(template, func(v string) string {
		m := variable.FindStringSubmatch(v)
		bound[m[1]] = true
		value := valueAt(in.ProtoReflect(), m[1])
		return strings.ReplaceAll(url.PathEscape(value), "%2F", "/")
	})
	for field := range bound {
		clearAt(in.ProtoReflect(), field)
	}
	var body []byte
	query := url.Values{}
	switch rule.GetBody() {
	case "":
		addQuery(query, in.ProtoReflect(), "")
	case "*":
		if body, err = protojson.Marshal(in); err != nil {
			return err
		}
	default:
		m := in.ProtoReflect()
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(rule.GetBody()))
		if body, err = protojson.Marshal(m.Get(fd).Message().Interface()); err != nil {
			return err
		}
		m.Clear(fd)
		addQuery(query, m, "")
	}
	target := r.base + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, verb, target, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.token != "" {
		req.Header.Set("Authorization", "Bearer "+r.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		var st spb.Status
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal(raw, &st); err != nil {
			return fmt.Errorf("HTTP %d: %s", resp.StatusCode, raw)
		}
		return status.ErrorProto(&st)
	}
	return protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(raw, reply.(proto.Message))
}

func ruleOf(rule *annotations.HttpRule) (string, string) {
	switch p := rule.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return http.MethodGet, p.Get
	case *annotations.HttpRule_Post:
		return http.MethodPost, p.Post
	case *annotations.HttpRule_Patch:
		return http.MethodPatch, p.Patch
	case *annotations.HttpRule_Put:
		return http.MethodPut, p.Put
	case *annotations.HttpRule_Delete:
		return http.MethodDelete, p.Delete
	}
	return "", ""
}

func valueAt(m protoreflect.Message, path string) string {
	parts := strings.Split(path, ".")
	for _, part := range parts[:len(parts)-1] {
		m = m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(part))).Message()
	}
	return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(parts[len(parts)-1]))).String()
}

func clearAt(m protoreflect.Message, path string) {
	parts := strings.Split(path, ".")
	if len(parts) > 1 {
		fd := m.Descriptor().Fields().ByName(protoreflect.Name(parts[0]))
		if !m.Has(fd) {
			return
		}
		clearAt(m.Mutable(fd).Message(), strings.Join(parts[1:], "."))
		return
	}
	m.Clear(m.Descriptor().Fields().ByName(protoreflect.Name(path)))
}

// addQuery sets the set fields as query parameters by proto name (nested ones dotted).
func addQuery(q url.Values, m protoreflect.Message, prefix string) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		key := prefix + string(fd.Name())
		if fd.Message() != nil && !fd.IsList() {
			switch fd.Message().FullName() {
			case "google.protobuf.FieldMask", "google.protobuf.Timestamp", "google.protobuf.Duration":
				text, _ := protojson.Marshal(v.Message().Interface())
				var s string
				_ = json.Unmarshal(text, &s)
				if fd.Message().FullName() == "google.protobuf.FieldMask" {
					// The mask's own paths, as the gateway's query parser takes them.
					paths := v.Message().Get(fd.Message().Fields().ByName("paths")).List()
					parts := make([]string, paths.Len())
					for i := range parts {
						parts[i] = paths.Get(i).String()
					}
					s = strings.Join(parts, ",")
				}
				q.Add(key, s)
			default:
				addQuery(q, v.Message(), key+".")
			}
			return true
		}
		if fd.IsList() {
			for i := 0; i < v.List().Len(); i++ {
				q.Add(key, scalarText(fd, v.List().Get(i)))
			}
			return true
		}
		q.Add(key, scalarText(fd, v))
		return true
	})
}

func scalarText(fd protoreflect.FieldDescriptor, v protoreflect.Value) string {
	if fd.Enum() != nil {
		if ev := fd.Enum().Values().ByNumber(v.Enum()); ev != nil {
			return string(ev.Name())
		}
	}
	return v.String()
}
