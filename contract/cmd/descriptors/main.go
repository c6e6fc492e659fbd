// Command descriptors writes the FileDescriptorSet of the services the emulator offers
// over gRPC, taken from the platform's published Go module (chainguard.dev/sdk), with
// every file they depend on (google.api annotations, well-known types) and the
// google.rpc status and error details the emulator sends as gRPC status details.
//
//	go run ./cmd/descriptors OUT.binpb
//
// Nothing here restates a definition: the descriptors are the ones compiled into the
// module's generated packages.
package main

import (
	"fmt"
	"os"
	"sort"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	// Linked so that the annotation files the services import are registered.
	_ "chainguard.dev/sdk/proto/annotations"
	_ "chainguard.dev/sdk/proto/capabilities"
	iamv2 "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	ping "chainguard.dev/sdk/proto/chainguard/platform/ping/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	vuln "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	iamv1 "chainguard.dev/sdk/proto/platform/iam/v1"
	oidc "chainguard.dev/sdk/proto/platform/oidc/v1"
	_ "github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2/options"

	"pulumi-irm/contract/internal/descset"
)

// roots are the files whose services (and messages) the emulator serves.
func roots() []protoreflect.FileDescriptor {
	return []protoreflect.FileDescriptor{
		iamv2.File_chainguard_platform_iam_v2beta1_groups_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_identities_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_roles_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_role_bindings_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_identity_providers_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_group_invites_proto,
		iamv2.File_chainguard_platform_iam_v2beta1_account_associations_proto,
		registry.File_chainguard_platform_registry_v2beta1_repos_proto,
		registry.File_chainguard_platform_registry_v2beta1_tags_proto,
		vuln.File_chainguard_platform_vulnerabilities_v2beta1_advisories_proto,
		ping.File_chainguard_platform_ping_v2beta1_ping_proto,
		oidc.File_oidc_platform_proto,
		iamv1.File_identity_platform_proto,
		iamv1.File_group_platform_proto,
		iamv1.File_role_platform_proto,
		iamv1.File_role_binding_platform_proto,
		iamv1.File_group_invites_platform_proto,
		iamv1.File_identity_providers_platform_proto,
		iamv1.File_account_associations_platform_proto,
		status.File_google_rpc_status_proto,
		errdetails.File_google_rpc_error_details_proto,
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: descriptors OUT.binpb")
		os.Exit(2)
	}
	seen := map[string]protoreflect.FileDescriptor{}
	var visit func(fd protoreflect.FileDescriptor)
	visit = func(fd protoreflect.FileDescriptor) {
		fd = resolved(fd)
		if _, ok := seen[fd.Path()]; ok {
			return
		}
		seen[fd.Path()] = fd
		imports := fd.Imports()
		for i := 0; i < imports.Len(); i++ {
			visit(imports.Get(i).FileDescriptor)
		}
	}
	for _, fd := range roots() {
		visit(fd)
	}
	paths := make([]string, 0, len(seen))
	for path := range seen {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	// Dependencies first, so a reader may build the files in order.
	var closure descset.Closure
	for _, path := range paths {
		fail(closure.Add(seen[path]))
	}
	fail(descset.Write(os.Args[1], &descriptorpb.FileDescriptorSet{File: closure.Files}))
}

// resolved is descset.Resolved, exiting on a file that is not linked.
func resolved(fd protoreflect.FileDescriptor) protoreflect.FileDescriptor {
	found, err := descset.Resolved(fd)
	fail(err)
	return found
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "descriptors:", err)
		os.Exit(1)
	}
}
