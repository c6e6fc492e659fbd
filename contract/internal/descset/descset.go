// Package descset builds FileDescriptorSets from the files the platform's Go module
// registers, for the descriptor commands of the contract module and of contract/head.
package descset

import (
	"fmt"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Resolved answers the registered file for an import the generated code left as a
// placeholder: the module registers some files under their base name only
// (`auth.proto` for `annotations/auth.proto`).
func Resolved(fd protoreflect.FileDescriptor) (protoreflect.FileDescriptor, error) {
	if !fd.IsPlaceholder() {
		return fd, nil
	}
	found, err := protoregistry.GlobalFiles.FindFileByPath(fd.Path())
	if err != nil {
		found, err = protoregistry.GlobalFiles.FindFileByPath(filepath.Base(fd.Path()))
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not linked: %w", fd.Path(), err)
	}
	return found, nil
}

// Closure collects files with every file they import, dependencies first, each named
// as its importers name it, each once.
type Closure struct {
	Files []*descriptorpb.FileDescriptorProto
	// added holds the resolved paths added; names the names they were added under.
	added, names map[string]bool
}

// Add adds fd after the files it imports.
func (c *Closure) Add(fd protoreflect.FileDescriptor) error {
	if c.added == nil {
		c.added, c.names = map[string]bool{}, map[string]bool{}
	}
	name := fd.Path()
	fd, err := Resolved(fd)
	if err != nil {
		return err
	}
	if c.added[fd.Path()] {
		return nil
	}
	c.added[fd.Path()] = true
	c.names[name] = true
	imports := fd.Imports()
	for i := 0; i < imports.Len(); i++ {
		if err := c.Add(imports.Get(i).FileDescriptor); err != nil {
			return err
		}
	}
	file := protodesc.ToFileDescriptorProto(fd)
	file.Name = proto.String(name)
	c.Files = append(c.Files, file)
	return nil
}

// Has reports whether a file of that name was added.
func (c *Closure) Has(name string) bool { return c.names[name] }

// Write stores set at path, making its folder: the same files always give the same
// bytes (deterministic marshalling), and a reader never sees half a set (the bytes go
// to a temporary file renamed over path).
func Write(path string, set *descriptorpb.FileDescriptorSet) error {
	bytes, err := proto.MarshalOptions{Deterministic: true}.Marshal(set)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, bytes, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
