// Package scenario holds what the scenarios of contract/head share: starting the built
// emulator with its gRPC face, calling it over HTTP by a method's `google.api.http` rule
// with answers decoded strictly into HEAD's messages (the assertions on a gRPC call are
// pulumi-irm/contract/internal/grpccall's).
package scenario

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"pulumi-irm/contract"
	"pulumi-irm/contract/internal/emulatorproc"
)

// Start runs the built emulator of the repository with its gRPC face and answers its
// bootstrap and a connection to the face (emulatorproc.StartGRPC and Dial: skipped
// unless IRM_GRPC_SCENARIO is set).
func Start(t *testing.T) (emulatorproc.Bootstrap, *grpc.ClientConn) {
	t.Helper()
	b := emulatorproc.StartGRPC(t)
	return b, emulatorproc.Dial(t, b)
}

// OwnerContext is a context of a minute, ended with the test, whose calls carry the
// bootstrap owner's token as the platform's clients send it: the whole authorization
// value.
func OwnerContext(t *testing.T, b emulatorproc.Bootstrap) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return metadata.AppendToOutgoingContext(ctx, "authorization", b.Token)
}

// WithoutSpecFields takes out of a JSON answer the specification's timestamps the
// definitions lack (contract.SpecFields: a tag's createTime, a role binding's
// updateTime), in the message and in the messages it holds, each checked for its type,
// so that the rest is decoded strictly.
func WithoutSpecFields(t *testing.T, out proto.Message, raw []byte) []byte {
	t.Helper()
	var object map[string]any
	if err := json.Unmarshal(raw, &object); err != nil {
		t.Fatalf("the answer is not a JSON object: %s", raw)
	}
	strip(t, out.ProtoReflect().Descriptor(), object)
	stripped, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	return stripped
}

func strip(t *testing.T, message protoreflect.MessageDescriptor, object map[string]any) {
	t.Helper()
	name := string(message.FullName())
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
	fields := message.Fields()
	for i := 0; i < fields.Len(); i++ {
		field := fields.Get(i)
		if field.Message() == nil || field.IsMap() {
			continue
		}
		switch value := object[field.JSONName()].(type) {
		case map[string]any:
			strip(t, field.Message(), value)
		case []any:
			for _, item := range value {
				if nested, ok := item.(map[string]any); ok {
					strip(t, field.Message(), nested)
				}
			}
		}
	}
}

// HTTPCaller answers a function that sends a JSON request made from a message (none
// when body is nil) with the bootstrap owner's token, wants HTTP 200, and decodes the
// answer strictly into out (less the specification's fields).
func HTTPCaller(t *testing.T, b emulatorproc.Bootstrap) func(method, path string, body proto.Message, out proto.Message) {
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
			t.Fatalf("%s %s: HTTP %d %s", method, path, res.StatusCode, redacted(raw))
		}
		raw = WithoutSpecFields(t, out, raw)
		if err := (protojson.UnmarshalOptions{}).Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: the answer is not a strict %s: %v\n%s", method, path, out.ProtoReflect().Descriptor().FullName(), err, redacted(raw))
		}
	}
}

// secretMembers are the JSON members of an answer that carry a secret: a SCIM token, an
// invite code.
var secretMembers = regexp.MustCompile(`"(token|code)"\s*:\s*"[^"]*"`)

// redacted is an answer as a failure may print it: its secrets replaced.
func redacted(raw []byte) []byte {
	return secretMembers.ReplaceAll(raw, []byte(`"$1":"[redacted]"`))
}

// Seed posts body to the emulator's `/emulator/seed` control (data the platform holds
// outside this API, such as the platforms of an image) and decodes its answer into out.
func Seed(t *testing.T, b emulatorproc.Bootstrap, body any, out any) {
	t.Helper()
	raw, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(b.APIURL+"/emulator/seed", "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/emulator/seed: HTTP %d %s", res.StatusCode, answer)
	}
	if err := json.Unmarshal(answer, out); err != nil {
		t.Fatalf("/emulator/seed: %v", err)
	}
}
