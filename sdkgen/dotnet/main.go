// Command sdkgen-dotnet writes the .NET SDK of the irm package from its schema. It is a
// module of its own because Pulumi's .NET code generator left
// github.com/pulumi/pulumi/pkg/v3 after v3.225.1 (it now lives with the .NET language
// host, whose module the Go proxy does not serve); ../main.go generates the other
// languages at the CLI's version. Same flags as ../main.go, without -lang.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// offline answers the one request the .NET generator makes (it downloads the package's
// logo for the NuGet package, Pulumi's own when the schema names none) with a blank
// 64x64 PNG, and refuses any other: generation stays offline.
type offline struct{}

func (offline) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || !bytes.HasSuffix([]byte(req.URL.Path), []byte(".png")) {
		return nil, fmt.Errorf("sdkgen-dotnet makes no network request (%s %s)", req.Method, req.URL)
	}
	var logo bytes.Buffer
	if err := png.Encode(&logo, image.NewNRGBA(image.Rect(0, 0, 64, 64))); err != nil {
		return nil, err
	}
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"image/png"}},
		Body:       io.NopCloser(&logo),
		Request:    req,
	}, nil
}

// refuseOthers is BindSpec's loader: the irm schema refers to no other package.
type refuseOthers struct{}

func (refuseOthers) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q; sdkgen-dotnet loads none", name)
}

func (r refuseOthers) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return r.LoadPackage(d.Name, nil)
}

func run() error {
	schemaFile := flag.String("schema", "", "the package schema (JSON)")
	out := flag.String("out", "", "the folder to write (replaced)")
	flag.Parse()
	if *schemaFile == "" || *out == "" {
		return errors.New("usage: sdkgen-dotnet -schema FILE -out DIR")
	}
	data, err := os.ReadFile(*schemaFile)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return fmt.Errorf("%s: %w", *schemaFile, err)
	}
	pkg, diags, err := schema.BindSpec(spec, refuseOthers{}, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("%s: %w", *schemaFile, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %s", *schemaFile, diags.Error())
	}
	http.DefaultClient.Transport = offline{}
	files, err := dotnet.GeneratePackage("pulumi-irm sdkgen", pkg, nil, nil)
	if err != nil {
		return fmt.Errorf("dotnet SDK: %w", err)
	}
	if err := os.RemoveAll(*out); err != nil {
		return err
	}
	for name, data := range files {
		file := filepath.Join(*out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen-dotnet: %v\n", err)
		os.Exit(1)
	}
}
