package contract

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// TestExpectationsReachable proves every expectation can be met: each expected request
// message, sent as its official annotation maps it (HEAD additions put back in the body),
// passes the front door's strict checks and is recorded exactly as expected.
func TestExpectationsReachable(t *testing.T) {
	door := newFrontDoor()
	server := httptest.NewServer(door)
	defer server.Close()
	for _, e := range Expected {
		for i, c := range e.Calls {
			if c.RPC == githubOIDC {
				continue // not an API request
			}
			md := methodOf(c.RPC)
			if md == nil {
				t.Errorf("%s: no official method %s", e.Label, c.RPC)
				continue
			}
			mt, err := protoregistry.GlobalTypes.FindMessageByName(md.Input().FullName())
			if err != nil {
				t.Fatal(err)
			}
			req := mt.New().Interface()
			if err := protojson.Unmarshal([]byte(strings.ReplaceAll(c.Req, "$URL", server.URL)), req); err != nil {
				t.Errorf("%s: bad expectation: %v", e.Label, err)
				continue
			}
			if c.Mask != nil {
				fd := req.ProtoReflect().Descriptor().Fields().ByName("update_mask")
				fm := &fieldmaskpb.FieldMask{Paths: c.Mask}
				req.ProtoReflect().Set(fd, protoreflectValueOf(fm))
			}
			var head []Found
			for _, h := range c.Head {
				path, value, _ := strings.Cut(h, "=")
				head = append(head, Found{path, value})
			}
			w, err := officialWire(c.RPC, req, head, c.Form, 0)
			if err != nil {
				t.Errorf("%s: %v", e.Label, err)
				continue
			}
			door.mu.Lock()
			door.label = "reach " + e.Label
			before := len(door.calls)
			door.mu.Unlock()
			res, err := w.send(server.URL, "contract-token")
			if err != nil {
				t.Errorf("%s: %v", e.Label, err)
				continue
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			door.mu.Lock()
			calls := door.calls[before:]
			door.mu.Unlock()
			if len(calls) != 1 {
				t.Errorf("%s call %d: %d calls recorded (HTTP %d %s)", e.Label, i+1, len(calls), res.StatusCode, body)
				continue
			}
			for _, p := range compareCall(c, calls[0], server.URL) {
				t.Errorf("%s call %d: the expectation itself cannot be met: %s", e.Label, i+1, p)
			}
		}
	}
}

func protoreflectValueOf(fm *fieldmaskpb.FieldMask) protoreflect.Value {
	return protoreflect.ValueOfMessage(fm.ProtoReflect())
}
