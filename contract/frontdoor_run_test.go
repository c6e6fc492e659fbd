package contract

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/api-operations.md from this run")

// driverRun is one run of the driver against the front door, shared by the tests.
type driverRun struct {
	door    *frontDoor
	url     string
	results map[string]driverResult
	order   []string
	tables  map[string][]string
	err     error
}

type driverResult struct {
	Label string `json:"label"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// contractToken is the API token the driver sends: an unsigned JWT without `exp`
// ({"alg":"none"}, {"sub":"contract"}), as the package's settings check wants one. The
// front door reads no token.
const contractToken = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJjb250cmFjdCJ9."

var (
	runOnce sync.Once
	theRun  driverRun
)

func runDriver(t *testing.T) *driverRun {
	t.Helper()
	runOnce.Do(func() {
		door := newFrontDoor()
		server := httptest.NewServer(door)
		theRun.door, theRun.url = door, server.URL
		uids, _ := json.Marshal(driverUIDs())
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "node", "--import", "tsx", "contract/driver/front-door.ts", server.URL)
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "CONTRACT_UIDS="+string(uids), "IRM_DEBUG=",
			"IRM_API_URL="+server.URL, "IRM_AUTH_URL=", "IRM_TOKEN="+contractToken, "IRM_IDENTITY=", "IRM_MAX_RETRIES=0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		server.Close()
		if err != nil {
			theRun.err = fmt.Errorf("driver failed: %v\n%s", err, lastLines(stderr.String(), 30))
			return
		}
		theRun.results = map[string]driverResult{}
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			line := sc.Bytes()
			var tables struct {
				Tables map[string][]string `json:"tables"`
			}
			if json.Unmarshal(line, &tables) == nil && tables.Tables != nil {
				theRun.tables = tables.Tables
				continue
			}
			var r driverResult
			if err := json.Unmarshal(line, &r); err != nil || r.Label == "" {
				theRun.err = fmt.Errorf("driver printed a line that is not a result: %q", line)
				return
			}
			theRun.results[r.Label] = r
			theRun.order = append(theRun.order, r.Label)
		}
		if theRun.tables == nil {
			theRun.err = fmt.Errorf("driver printed no tables")
		}
	})
	if theRun.err != nil {
		t.Fatal(theRun.err)
	}
	return &theRun
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestFrontDoor: every operation reaches the intended RPC with the intended request.
func TestFrontDoor(t *testing.T) {
	run := runDriver(t)
	expected := map[string]Op{}
	for _, e := range Expected {
		expected[e.Label] = e
	}
	byLabel := map[string][]Recorded{}
	for _, c := range run.door.calls {
		byLabel[c.Label] = append(byLabel[c.Label], c)
	}
	for _, label := range run.order {
		if _, ok := expected[label]; !ok {
			t.Errorf("%s: the driver performs it but no expectation names it; it sent:", label)
			for _, c := range byLabel[label] {
				text, _ := protojson.Marshal(c.Request)
				t.Errorf("  %s %s -> %s %s", c.HTTPMethod, c.Path, c.RPC, text)
			}
		}
	}
	seenBy := map[string][]HTTPSeen{}
	for _, s := range run.door.seen {
		seenBy[s.Label] = append(seenBy[s.Label], s)
	}
	for _, e := range Expected {
		t.Run(e.Label, func(t *testing.T) {
			result, ran := run.results[e.Label]
			if !ran {
				t.Fatalf("the driver did not perform it")
			}
			got := byLabel[e.Label]
			for i, want := range e.Calls {
				if i >= len(got) {
					t.Errorf("call %d: want %s %s (%s), nothing reached the service", i+1, want.Method, want.Path, short(want.RPC))
					continue
				}
				for _, p := range compareCall(want, got[i], run.url) {
					t.Errorf("call %d (%s %s): %s", i+1, got[i].HTTPMethod, got[i].Path, p)
				}
			}
			for _, extra := range got[min(len(got), len(e.Calls)):] {
				t.Errorf("unexpected call %s %s -> %s", extra.HTTPMethod, extra.Path, short(extra.RPC))
			}
			if !result.OK || t.Failed() {
				for _, s := range seenBy[e.Label] {
					if s.Status >= 400 {
						t.Errorf("HTTP %s %s?%s answered %d: %s", s.Method, s.Path, s.Query, s.Status, s.Error)
					}
				}
			}
			if !result.OK {
				t.Errorf("the operation failed in the driver: %s", result.Error)
			}
		})
	}
	writeOrCheckDocs(t)
}

func short(rpc string) string {
	if i := strings.LastIndex(rpc, "."); i >= 0 {
		return rpc[i+1:]
	}
	return rpc
}

// compareCall lists every difference between the expected call and the recorded one.
func compareCall(want Call, got Recorded, url string) []string {
	var problems []string
	if got.HTTPMethod != want.Method || got.Path != want.Path {
		problems = append(problems, fmt.Sprintf("sent %s %s, want %s %s", got.HTTPMethod, got.Path, want.Method, want.Path))
	}
	if got.RPC != want.RPC {
		problems = append(problems, fmt.Sprintf("reached %s, want %s", got.RPC, want.RPC))
		return problems
	}
	if want.RPC == githubOIDC {
		wantQuery := strings.ReplaceAll(want.Req, "$HOST", strings.TrimPrefix(url, "http://"))
		g, _ := neturl.ParseQuery(got.Query)
		w, _ := neturl.ParseQuery(wantQuery)
		if g.Encode() != w.Encode() {
			problems = append(problems, fmt.Sprintf("GitHub Actions token asked with %q, want %q", got.Query, w.Encode()))
		}
		return problems
	}
	if want.Form && !strings.HasPrefix(got.ContentType, "application/x-www-form-urlencoded") {
		problems = append(problems, fmt.Sprintf("body type %q, want application/x-www-form-urlencoded", got.ContentType))
	}
	problems = append(problems, got.Problems...)
	expected := got.Request.ProtoReflect().Type().New().Interface()
	text := strings.ReplaceAll(want.Req, "$URL", url)
	if err := protojson.Unmarshal([]byte(text), expected); err != nil {
		return append(problems, fmt.Sprintf("bad expectation %s: %v", text, err))
	}
	gotMsg := proto.Clone(got.Request)
	gotMask := takeMask(gotMsg)
	wantMask := takeMask(expected)
	if want.Mask != nil {
		wantMask = want.Mask
	}
	if strings.Join(gotMask, ",") != strings.Join(wantMask, ",") {
		problems = append(problems, fmt.Sprintf("update_mask paths %q, want %q", gotMask, wantMask))
	}
	for _, d := range DiffFields(Flatten(expected), Flatten(gotMsg)) {
		problems = append(problems, "request "+d)
	}
	var gotHead []string
	for _, f := range got.Head {
		gotHead = append(gotHead, f.Path+"="+f.Value)
	}
	sort.Strings(gotHead)
	wantHead := append([]string(nil), want.Head...)
	sort.Strings(wantHead)
	if strings.Join(gotHead, " ") != strings.Join(wantHead, " ") {
		problems = append(problems, fmt.Sprintf("HEAD additions carried %q, want %q", gotHead, wantHead))
	}
	return problems
}

// takeMask removes and returns a request's update mask paths.
func takeMask(m proto.Message) []string {
	fd := m.ProtoReflect().Descriptor().Fields().ByName("update_mask")
	if fd == nil || !m.ProtoReflect().Has(fd) {
		return nil
	}
	fm := m.ProtoReflect().Get(fd).Message().Interface().(*fieldmaskpb.FieldMask)
	paths := append([]string(nil), fm.GetPaths()...)
	m.ProtoReflect().Clear(fd)
	return paths
}

// methodOf finds the official method descriptor of a full RPC name.
func methodOf(rpc string) protoreflect.MethodDescriptor {
	parts := strings.Split(strings.TrimPrefix(rpc, "/"), "/")
	if len(parts) != 2 {
		return nil
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(parts[0]))
	if err != nil {
		return nil
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil
	}
	return sd.Methods().ByName(protoreflect.Name(parts[1]))
}

// writeOrCheckDocs renders docs/api-operations.md from the expectations this run judged;
// with -update (or IRM_CONTRACT_UPDATE_DOCS=1) it writes it, otherwise a stale file fails.
func writeOrCheckDocs(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Operations\n\n")
	b.WriteString("Every operation the package sends, then every operation of the definitions at HEAD,\n")
	b.WriteString("served by the emulator or not, and why.\n\n")
	b.WriteString("## Operations the package sends\n\n")
	b.WriteString("Generated by the contract suite (`contract/`, `go test ./... -update`) from its own run:\n")
	b.WriteString("every operation of the SDK and every update the provider's handlers send, with the\n")
	b.WriteString("official RPC (`chainguard.dev/sdk` v0.1.57) the gateway routes it to and its request\n")
	b.WriteString("message. A normal run fails when this file is stale. Do not edit by hand.\n\n")
	b.WriteString("| operation | HTTP | official RPC | request message | update mask |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	for _, e := range Expected {
		for i, c := range e.Calls {
			name := e.Label
			if i > 0 {
				name += " (then)"
			}
			if c.RPC == githubOIDC {
				fmt.Fprintf(&b, "| %s | GET GitHub's `ACTIONS_ID_TOKEN_REQUEST_URL` | (GitHub Actions, not the API) | `%s` |  |\n", name, c.Req)
				continue
			}
			md := methodOf(c.RPC)
			request := "?"
			if md != nil {
				request = "`" + string(md.Input().FullName()) + "`"
			}
			http := c.Method + " `" + genericPath(c.Path) + "`"
			if c.Form {
				http += " (form)"
			}
			mask := ""
			if len(c.Mask) > 0 {
				mask = "`" + strings.Join(c.Mask, ",") + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", name, http, strings.TrimPrefix(c.RPC, "/"), request, mask)
		}
	}
	writeHeadOperations(&b)
	text := b.String()
	path := filepath.Join(repoRoot(t), "docs", "api-operations.md")
	if *updateDocs || os.Getenv("IRM_CONTRACT_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	current, err := os.ReadFile(path)
	if err != nil || string(current) != text {
		t.Errorf("docs/api-operations.md is stale: run `go test ./... -run TestFrontDoor -update` in contract/")
	}
}

// writeHeadOperations renders HeadOperations and OtherServices (head_operations.go).
func writeHeadOperations(b *strings.Builder) {
	b.WriteString("\n## Every operation of the definitions at HEAD\n\n")
	b.WriteString("Each RPC of the v2beta1 services at HEAD (commit 934f4954 of the definitions) with its\n")
	b.WriteString("HTTP rule, whether the emulator serves it (over HTTP, and over gRPC where v0.1.57 defines\n")
	b.WriteString("it or `contract/head` brings HEAD's file of its service), and why not. The contract\n")
	b.WriteString("suite holds the table to the module's methods and to the emulator's answers\n")
	b.WriteString("(`head_operations.go`).\n\n")
	b.WriteString("| service | RPC | HTTP | served | why not |\n")
	b.WriteString("| --- | --- | --- | --- | --- |\n")
	for _, op := range HeadOperations {
		service := strings.TrimPrefix(op.Service, "chainguard.platform.")
		servedText := "no"
		if op.Served {
			servedText = "yes"
			if methodOf("/"+op.Service+"/"+op.Method) == nil && !slices.Contains(HeadGRPCServices, op.Service) {
				servedText = "yes (HTTP only: not in v0.1.57)"
			}
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s `%s` | %s | %s |\n", service, op.Method, op.Verb, op.Path, servedText, op.Why)
	}
	b.WriteString("\n## The other services at HEAD\n\n")
	b.WriteString("The services of other versions (v1, v2, alpha) and of other products, with their\n")
	b.WriteString("number of operations.\n\n")
	b.WriteString("| service | operations | served |\n")
	b.WriteString("| --- | --- | --- |\n")
	for _, s := range OtherServices {
		fmt.Fprintf(b, "| `%s` | %d | %s |\n", strings.TrimPrefix(s.Service, "chainguard.platform."), s.Operations, s.Note)
	}
}

// genericPath shows a request path with the driver's uids as placeholders.
func genericPath(p string) string {
	r := strings.NewReplacer(
		tagUID, "{tag uid}", repoUID, "{repo uid}", bindingUID, "{binding uid}", idpUID, "{idp uid}",
		inviteUID, "{invite uid}", identityUID, "{identity uid}", customRoleUID, "{role uid}",
		groupUID, "{group uid}", rootUID, "{group uid}", viewerRole, "{role uid}", advisoryUID, "{advisory uid}",
	)
	return r.Replace(p)
}
