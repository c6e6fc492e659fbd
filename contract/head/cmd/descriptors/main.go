// Command descriptors brings the services the emulator serves at the definitions'
// newer revision (chainguard.dev/sdk v0.1.212, the public repository's HEAD) into the
// descriptor set that contract/cmd/descriptors wrote from v0.1.57:
//
//	go run ./cmd/descriptors SET.binpb
//
// Each file linked here replaces the file of the same name in SET, with every file it
// imports (HEAD's annotations and capabilities enum, which only add to v0.1.57's); the
// other files of SET stay as they are. The registry's writes (CreateRepo, UpdateRepo,
// GetRepoReadme, UpdateRepoReadme, CreateTag, DeleteTag) exist only at HEAD; so do the
// IAM calls BatchCreateRoleBindings, the SCIM token and switch of an identity provider,
// the external group role mappings and the terms (every IAM v2beta1 file is taken from
// HEAD, so that its messages carry HEAD's fields, such as an identity provider's `scim`);
// the registry's ImagesService, OverlaysService and OverlayBindingsService; the
// advisory documents' SecurityAdvisoryService; the Libraries ArtifactsService
// and RequestGroupsService;
// and the event subscriptions (v2beta1 SubscriptionsService, v1 Subscriptions) are
// services v0.1.57's set does not carry. contract.HeadGRPCServices lists the services.
//
// This is a module of its own so that the contract suite keeps judging by v0.1.57.
package main

import (
	"fmt"
	"os"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	// Linked so that the annotation files the services import are registered.
	_ "chainguard.dev/sdk/proto/annotations"
	_ "chainguard.dev/sdk/proto/capabilities"
	advisory "chainguard.dev/sdk/proto/chainguard/platform/advisory/v2beta1"
	events "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	iam "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	libraries "chainguard.dev/sdk/proto/chainguard/platform/libraries/v2beta1"
	registry "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	eventsv1 "chainguard.dev/sdk/proto/platform/events/v1"
	_ "github.com/grpc-ecosystem/grpc-gateway/v2/protoc-gen-openapiv2/options"

	"pulumi-irm/contract/internal/descset"
)

// roots are the HEAD files whose services (and messages) replace v0.1.57's.
func roots() []protoreflect.FileDescriptor {
	return []protoreflect.FileDescriptor{
		iam.File_chainguard_platform_iam_v2beta1_groups_proto,
		iam.File_chainguard_platform_iam_v2beta1_identities_proto,
		iam.File_chainguard_platform_iam_v2beta1_roles_proto,
		iam.File_chainguard_platform_iam_v2beta1_role_bindings_proto,
		iam.File_chainguard_platform_iam_v2beta1_identity_providers_proto,
		iam.File_chainguard_platform_iam_v2beta1_group_invites_proto,
		iam.File_chainguard_platform_iam_v2beta1_account_associations_proto,
		iam.File_chainguard_platform_iam_v2beta1_external_group_role_mappings_proto,
		iam.File_chainguard_platform_iam_v2beta1_terms_proto,
		registry.File_chainguard_platform_registry_v2beta1_repos_proto,
		registry.File_chainguard_platform_registry_v2beta1_tags_proto,
		registry.File_chainguard_platform_registry_v2beta1_images_proto,
		registry.File_chainguard_platform_registry_v2beta1_overlays_proto,
		registry.File_chainguard_platform_registry_v2beta1_overlay_bindings_proto,
		advisory.File_chainguard_platform_advisory_v2beta1_advisory_proto,
		events.File_chainguard_platform_events_v2beta1_subscriptions_proto,
		libraries.File_chainguard_platform_libraries_v2beta1_artifacts_proto,
		libraries.File_chainguard_platform_libraries_v2beta1_request_groups_proto,
		eventsv1.File_subscriptions_platform_proto,
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: descriptors SET.binpb")
		os.Exit(2)
	}
	path := os.Args[1]
	raw, err := os.ReadFile(path)
	fail(err)
	base := &descriptorpb.FileDescriptorSet{}
	fail(proto.Unmarshal(raw, base))

	// HEAD's files, dependencies first, each named as its importers name it.
	var head descset.Closure
	for _, fd := range roots() {
		fail(head.Add(fd))
	}
	v1, err := registryV1()
	fail(err)
	for _, fd := range v1 {
		fail(head.Add(fd))
	}
	head.Files = distinct(head.Files)

	merged := &descriptorpb.FileDescriptorSet{File: head.Files}
	for _, file := range base.File {
		if !head.Has(file.GetName()) {
			merged.File = append(merged.File, file)
		}
	}
	fail(descset.Write(path, merged))
}

// distinct keeps the first file of each name: a file reached under the name its importer
// gives it (renamed) is the same file as the one reached through the generated code.
func distinct(files []*descriptorpb.FileDescriptorProto) []*descriptorpb.FileDescriptorProto {
	seen := map[string]bool{}
	out := files[:0]
	for _, file := range files {
		if !seen[file.GetName()] {
			seen[file.GetName()] = true
			out = append(out, file)
		}
	}
	return out
}

func fail(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "descriptors (HEAD):", err)
		os.Exit(1)
	}
}
