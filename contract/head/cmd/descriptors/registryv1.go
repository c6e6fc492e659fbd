package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	// The v1 registry's file imports these; linked so that they resolve as registered.
	_ "chainguard.dev/sdk/proto/platform/common/v1"
	_ "chainguard.dev/sdk/proto/platform/tenant/v1"
	_ "google.golang.org/protobuf/types/known/emptypb"
	_ "google.golang.org/protobuf/types/known/timestamppb"
)

// registryV1Files are the v1 registry's files (service chainguard.platform.registry.Registry
// and the apko messages it imports), by the names their importers use.
var registryV1Files = []string{"registry.platform.proto"}

// registryV1 compiles the v1 registry's .proto files as the module ships them (its Go
// package, chainguard.dev/sdk/proto/platform/registry/v1, would link the image build
// libraries its helpers import; its generated descriptors are the same files compiled).
// Every import other than the package's own files resolves to the file the linked
// generated code registered, so the compiled files share its types.
func registryV1() ([]protoreflect.FileDescriptor, error) {
	dir, err := moduleDir("chainguard.dev/sdk")
	if err != nil {
		return nil, err
	}
	source := &protocompile.SourceResolver{
		ImportPaths: []string{filepath.Join(dir, "proto", "platform", "registry", "v1")},
	}
	compiler := protocompile.Compiler{
		Resolver: protocompile.ResolverFunc(func(path string) (protocompile.SearchResult, error) {
			if fd := registered(path); fd != nil {
				return protocompile.SearchResult{Desc: fd}, nil
			}
			return source.FindFileByPath(path)
		}),
	}
	files, err := compiler.Compile(context.Background(), registryV1Files...)
	if err != nil {
		return nil, fmt.Errorf("compiling the v1 registry's files: %w", err)
	}
	out := make([]protoreflect.FileDescriptor, 0, len(files))
	for _, file := range files {
		out = append(out, file)
	}
	return out, nil
}

// registered answers the linked file of that import name (some are registered under
// their base name only), named as the import names it; nil when none is linked.
func registered(path string) protoreflect.FileDescriptor {
	fd, err := protoregistry.GlobalFiles.FindFileByPath(path)
	if err != nil {
		fd, err = protoregistry.GlobalFiles.FindFileByPath(filepath.Base(path))
	}
	if err != nil {
		return nil
	}
	if fd.Path() != path {
		return renamed{fd, path}
	}
	return fd
}

// renamed is a linked file under the name an importer gives it.
type renamed struct {
	protoreflect.FileDescriptor
	path string
}

func (r renamed) Path() string { return r.path }

// moduleDir is where the Go module cache holds the module this command is built with.
func moduleDir(module string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %w", module, err)
	}
	dir := strings.TrimSpace(string(out))
	if dir == "" {
		return "", fmt.Errorf("go list -m %s: the module is not in the module cache", module)
	}
	return dir, nil
}
