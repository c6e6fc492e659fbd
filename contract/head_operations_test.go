package contract

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// ruleOf is a method's first HTTP binding, as verb and path template.
func ruleOf(md protoreflect.MethodDescriptor) (string, string) {
	rule, _ := proto.GetExtension(md.Options(), annotations.E_Http).(*annotations.HttpRule)
	switch p := rule.GetPattern().(type) {
	case *annotations.HttpRule_Get:
		return "GET", p.Get
	case *annotations.HttpRule_Post:
		return "POST", p.Post
	case *annotations.HttpRule_Patch:
		return "PATCH", p.Patch
	case *annotations.HttpRule_Put:
		return "PUT", p.Put
	case *annotations.HttpRule_Delete:
		return "DELETE", p.Delete
	}
	return "", ""
}

// TestHeadOperationsTable holds the table of HEAD's operations to the module: every
// v2beta1 method the module defines is a row, with the module's HTTP rule, and no row
// appears twice.
func TestHeadOperationsTable(t *testing.T) {
	rows := map[string]HeadOperation{}
	for _, op := range HeadOperations {
		key := op.Service + "/" + op.Method
		if _, twice := rows[key]; twice {
			t.Errorf("%s: listed twice", key)
		}
		rows[key] = op
		if !op.Served && op.Why == "" {
			t.Errorf("%s: not served without a reason", key)
		}
	}
	checked := 0
	protoregistry.GlobalFiles.RangeFiles(func(fd protoreflect.FileDescriptor) bool {
		if !strings.HasSuffix(string(fd.Package()), ".v2beta1") {
			return true
		}
		for i := 0; i < fd.Services().Len(); i++ {
			sd := fd.Services().Get(i)
			for j := 0; j < sd.Methods().Len(); j++ {
				md := sd.Methods().Get(j)
				key := string(sd.FullName()) + "/" + string(md.Name())
				op, ok := rows[key]
				if !ok {
					t.Errorf("%s: a method of the module missing from HeadOperations", key)
					continue
				}
				verb, path := ruleOf(md)
				if op.Verb != verb || op.Path != path {
					t.Errorf("%s: the table says %s %s, the module %s %s", key, op.Verb, op.Path, verb, path)
				}
				checked++
			}
		}
		return true
	})
	if checked == 0 {
		t.Fatal("no v2beta1 method of the module was found: is the module linked?")
	}
}

// probePath fills a path template's variables with uid, and `{digest}` with a digest.
func probePath(template, uid string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(template, '{')
		if open < 0 {
			b.WriteString(template)
			return b.String()
		}
		end := strings.IndexByte(template[open:], '}') + open
		b.WriteString(template[:open])
		if strings.HasPrefix(template[open:], "{digest") {
			b.WriteString("sha256:" + strings.Repeat("0", 64))
		} else {
			b.WriteString(uid)
		}
		template = template[end+1:]
	}
}

// probeOperations sends one request per row of HeadOperations (an empty JSON body
// where the rule takes one, every uid one that names nothing) and holds the table to
// the answers: a served row is answered, an unserved one is UNIMPLEMENTED or finds no
// route.
func probeOperations(t *testing.T, e *emulator) {
	uid := e.root + "/" + strings.Repeat("0", 16)
	for _, op := range HeadOperations {
		w := wire{method: op.Verb, path: probePath(op.Path, uid)}
		if op.Verb == "POST" || op.Verb == "PATCH" || op.Verb == "PUT" {
			w.body, w.contentType = []byte("{}"), "application/json"
		}
		res, err := w.send(e.url, e.token)
		if err != nil {
			t.Errorf("%s: %v", op.Method, err)
			continue
		}
		var body strings.Builder
		buf := make([]byte, 4096)
		n, _ := res.Body.Read(buf)
		body.Write(buf[:n])
		res.Body.Close()
		noRoute := res.StatusCode == 404 && strings.Contains(body.String(), fmt.Sprintf("Not found: %s %s", w.method, w.path))
		unanswered := res.StatusCode == 501 || noRoute
		what := fmt.Sprintf("%s/%s (%s %s)", op.Service, op.Method, w.method, w.path)
		if op.Served && unanswered {
			t.Errorf("%s: marked served in head_operations.go, but the emulator answers %d %s", what, res.StatusCode, body.String())
		}
		if !op.Served && !unanswered {
			t.Errorf("%s: marked not served in head_operations.go, but the emulator answers %d %s; mark it served", what, res.StatusCode, body.String())
		}
	}
}
