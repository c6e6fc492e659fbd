package contract

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	capabilities "chainguard.dev/sdk/proto/capabilities"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/code"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// enumNames lists an enum's value names, without its zero value, plus HEAD's additions.
func enumNames(ed protoreflect.EnumDescriptor, withZero bool) []string {
	var out []string
	vs := ed.Values()
	for i := 0; i < vs.Len(); i++ {
		if vs.Get(i).Number() == 0 && !withZero {
			continue
		}
		out = append(out, string(vs.Get(i).Name()))
	}
	for _, e := range HeadEnums {
		if e.Enum == string(ed.FullName()) {
			out = append(out, e.Values...)
		}
	}
	sort.Strings(out)
	return out
}

// setDiff says what one set lacks and has too many of, compared with the other.
func setDiff(what string, got, want []string) string {
	g, w := map[string]bool{}, map[string]bool{}
	for _, v := range got {
		g[v] = true
	}
	for _, v := range want {
		w[v] = true
	}
	var missing, extra []string
	for v := range w {
		if !g[v] {
			missing = append(missing, v)
		}
	}
	for v := range g {
		if !w[v] {
			extra = append(extra, v)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) == 0 && len(extra) == 0 && len(got) == len(want) {
		return ""
	}
	return fmt.Sprintf("%s: %d values, want %d; missing %s; not in the definitions %s", what, len(got), len(want),
		abbreviate(missing), abbreviate(extra))
}

func abbreviate(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	if len(list) > 12 {
		return fmt.Sprintf("%s ... (%d in all)", strings.Join(list[:12], ", "), len(list))
	}
	return strings.Join(list, ", ")
}

// TestSDKTables: the SDK's capability list and enums are the module's plus HEAD's
// additions; its gRPC status table is google.rpc.Code with grpc-gateway's HTTP statuses.
func TestSDKTables(t *testing.T) {
	run := runDriver(t)
	checks := []struct {
		name string
		want []string
	}{
		{"capabilities", enumNames(capabilities.Capability(0).Descriptor(), false)},
		{"servicePrincipals", enumNames(iam.ServicePrincipal(0).Descriptor(), false)},
		{"relationshipTypes", enumNames(iam.RelationshipType(0).Descriptor(), true)},
		{"correlationRules", append([]string(nil), HeadCorrelationRules...)},
		{"grpcStatuses", grpcStatuses()},
	}
	for _, c := range checks {
		got, ok := run.tables[c.name]
		if !ok {
			t.Errorf("sdk table %s: the driver printed none", c.name)
			continue
		}
		if why := setDiff("sdk "+c.name, got, c.want); why != "" {
			t.Error(why)
		}
	}
}

// grpcStatuses is google.rpc.Code, each value as "NAME number HTTP status", the status
// being grpc-gateway's: what sdk/core/grpc-status.ts must say.
func grpcStatuses() []string {
	var out []string
	for number, name := range code.Code_name {
		out = append(out, fmt.Sprintf("%s %d %d", name, number, runtime.HTTPStatusFromCode(codes.Code(number))))
	}
	return out
}

// pinned reports whether a capability is one this API pins (corrections item 3).
func pinned(name string) bool {
	for _, prefix := range []string{"CAP_IAM_", "CAP_REPO_", "CAP_TAG", "CAP_MANIFEST", "CAP_REFERRERS", "CAP_ADVISORIES", "CAP_EVENTS"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// builtInRoleSets are the module's sets of the built-in roles, restricted to the pinned
// subset, with HEAD's one extra value for owner.
func builtInRoleSets() map[string][]string {
	restrict := func(caps []capabilities.Capability, extra ...string) []string {
		var out []string
		for _, c := range caps {
			if pinned(c.String()) {
				out = append(out, c.String())
			}
		}
		out = append(out, extra...)
		sort.Strings(out)
		return out
	}
	return map[string][]string{
		"owner":         restrict(capabilities.OwnerCaps, HeadOwnerExtra...),
		"editor":        restrict(capabilities.EditorCaps),
		"viewer":        restrict(capabilities.ViewerCaps),
		"registry.pull": restrict(capabilities.RegistryPullCaps),
	}
}

// TestPinnedSetSizes: the restriction gives the sizes the corrections state (49, 21, 15, 7).
func TestPinnedSetSizes(t *testing.T) {
	want := map[string]int{"owner": 49, "editor": 21, "viewer": 15, "registry.pull": 7}
	for role, set := range builtInRoleSets() {
		if len(set) != want[role] {
			t.Errorf("%s: %d pinned capabilities, the corrections say %d", role, len(set), want[role])
		}
	}
}
