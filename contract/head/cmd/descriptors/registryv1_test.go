package main

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"

	registryv1 "chainguard.dev/sdk/proto/platform/registry/v1"
)

// TestRegistryV1IsTheGeneratedFile: the v1 registry's file compiled from the module's
// .proto files is, byte for byte, the file its generated Go package carries (the test
// links that package; the command does not).
func TestRegistryV1IsTheGeneratedFile(t *testing.T) {
	compiled, err := registryV1()
	if err != nil {
		t.Fatal(err)
	}
	deterministic := proto.MarshalOptions{Deterministic: true}
	want, err := deterministic.Marshal(protodesc.ToFileDescriptorProto(registryv1.File_registry_platform_proto))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range compiled {
		if fd.Path() != "registry.platform.proto" {
			continue
		}
		got, err := deterministic.Marshal(protodesc.ToFileDescriptorProto(fd))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the compiled registry.platform.proto differs from the generated one (%d bytes, generated %d)", len(got), len(want))
		}
		return
	}
	t.Fatalf("registry.platform.proto was not compiled")
}
