package descset

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// TestWrite: a closure written twice gives the same bytes, read back whole, in a folder
// Write makes, with no temporary file left beside it.
func TestWrite(t *testing.T) {
	var closure Closure
	if err := closure.Add(timestamppb.File_google_protobuf_timestamp_proto); err != nil {
		t.Fatal(err)
	}
	set := &descriptorpb.FileDescriptorSet{File: closure.Files}
	path := filepath.Join(t.TempDir(), "made", "set.binpb")
	if err := Write(path, set); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(path, set); err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatal("the same set was written as different bytes")
	}
	var read descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(first, &read); err != nil {
		t.Fatal(err)
	}
	if len(read.GetFile()) != 1 || read.GetFile()[0].GetName() != "google/protobuf/timestamp.proto" {
		t.Fatalf("read back %d files: %v", len(read.GetFile()), read.GetFile())
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatalf("a temporary file is left: %v", err)
	}
}
