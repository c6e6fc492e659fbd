// Command sdkgen writes the SDKs of the irm package for Python, Go and Node.js from the
// schema the native provider plugin serves (dist/plugin/schema.json), with Pulumi's own
// code generators (github.com/pulumi/pulumi/pkg/v3/codegen) at the CLI's version. It
// reads no plugin and asks no network: the schema is the only input.
//
//	sdkgen -schema dist/plugin/schema.json -lang python -out dist/sdks/python
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-irm sdkgen"

// noLoader refuses every package other than the one being generated: the irm schema
// refers to no other package, and a schema that did would fail here rather than reach
// for a plugin.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; sdkgen loads no other package", pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return noLoader{}.LoadPackage(d.Name, nil)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("the schema refers to package %q; sdkgen loads no other package", pkg)
}

func (noLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return noLoader{}.LoadPackageReference(d.Name, nil)
}

func load(file string) (*schema.Package, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", file, diags.Error())
	}
	return pkg, nil
}

func generate(lang string, pkg *schema.Package) (map[string][]byte, error) {
	switch lang {
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noLoader{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noLoader{})
	default:
		return nil, fmt.Errorf("unknown language %q (python, go or nodejs)", lang)
	}
}

func write(out string, files map[string][]byte) error {
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	for name, data := range files {
		file := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func run() error {
	schemaFile := flag.String("schema", "", "the package schema (JSON)")
	lang := flag.String("lang", "", "python, go or nodejs")
	out := flag.String("out", "", "the folder to write (replaced)")
	flag.Parse()
	if *schemaFile == "" || *lang == "" || *out == "" {
		return errors.New("usage: sdkgen -schema FILE -lang python|go|nodejs -out DIR")
	}
	pkg, err := load(*schemaFile)
	if err != nil {
		return err
	}
	files, err := generate(*lang, pkg)
	if err != nil {
		return fmt.Errorf("%s SDK: %w", *lang, err)
	}
	return write(*out, files)
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}
