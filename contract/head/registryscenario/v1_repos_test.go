package registryscenario

import (
	"strings"
	"testing"

	registryv1 "chainguard.dev/sdk/proto/platform/registry/v1"
	"pulumi-irm/contract/head/internal/scenario"
)

// TestV1ReposOverHTTP sends the v1 registry's repo calls the platform's tools make,
// each body made from and each answer decoded strictly into the module's v1 messages.
func TestV1ReposOverHTTP(t *testing.T) {
	b, _ := scenario.Start(t)
	call := scenario.HTTPCaller(t, b)
	made := &registryv1.Repo{}
	call("POST", "/registry/v1/repos/"+b.RootGroupUID, &registryv1.Repo{
		Name: "v1-tools", CatalogTier: registryv1.CatalogTier_BASE, Aliases: []string{"kit"}, Readme: "# Tools",
	}, made)
	if !strings.HasPrefix(made.GetId(), b.RootGroupUID+"/") || made.GetReadme() != "# Tools" || made.GetCatalogTier() != registryv1.CatalogTier_BASE {
		t.Fatalf("created: %v", made)
	}
	list := &registryv1.RepoList{}
	call("GET", "/registry/v1/repos?id="+made.GetId(), nil, list)
	if len(list.GetItems()) != 1 || list.GetItems()[0].GetReadme() != "# Tools" {
		t.Fatalf("listed with its README: %v", list.GetItems())
	}
	updated := &registryv1.Repo{}
	call("PUT", "/registry/v1/repos/"+made.GetId(), &registryv1.Repo{
		Id: made.GetId(), Name: "v1-tools", Description: "build tools", CatalogTier: registryv1.CatalogTier_APPLICATION,
	}, updated)
	if updated.GetDescription() != "build tools" || len(updated.GetAliases()) != 0 || updated.GetReadme() != "" {
		t.Fatalf("replaced whole: %v", updated)
	}
	call("DELETE", "/registry/v1/repos/"+made.GetId(), nil, &registryv1.Repo{})
	left := &registryv1.RepoList{}
	call("GET", "/registry/v1/repos?id="+made.GetId(), nil, left)
	if len(left.GetItems()) != 0 {
		t.Fatalf("left after delete: %v", left.GetItems())
	}
}
