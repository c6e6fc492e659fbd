package main

import (
	"slices"
	"testing"

	"pulumi-irm/contract"
)

// TestRootsAreHeadGRPCServices: the services of the files this command brings in are
// the ones docs/api-operations.md calls served over gRPC at HEAD (contract.HeadGRPCServices).
func TestRootsAreHeadGRPCServices(t *testing.T) {
	var services []string
	for _, fd := range roots() {
		list := fd.Services()
		for i := 0; i < list.Len(); i++ {
			services = append(services, string(list.Get(i).FullName()))
		}
	}
	slices.Sort(services)
	want := slices.Sorted(slices.Values(contract.HeadGRPCServices))
	if !slices.Equal(services, want) {
		t.Fatalf("the services of roots() are\n  %v\ncontract.HeadGRPCServices lists\n  %v", services, want)
	}
}
