package emulatorproc

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRepositoryRoot: from this package, the root is three folders up and holds the
// package and both contract modules.
func TestRepositoryRoot(t *testing.T) {
	root := RepositoryRoot(t)
	want, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if root != want {
		t.Fatalf("RepositoryRoot = %s, want %s", root, want)
	}
	for _, file := range []string{"package.json", "contract/go.mod", "contract/head/go.mod"} {
		if _, err := os.Stat(filepath.Join(root, file)); err != nil {
			t.Errorf("the root has no %s: %v", file, err)
		}
	}
}

// TestGRPCScenarioSwitch: without IRM_GRPC_SCENARIO a gRPC scenario is skipped before
// any emulator starts (StartGRPC skips with the reason); with it, it runs. (Checked on
// the switch itself: a skipped subtest would print the SKIP line that
// tests/contract/contract.test.ts refuses in a full run.)
func TestGRPCScenarioSwitch(t *testing.T) {
	t.Setenv("IRM_GRPC_SCENARIO", "")
	if grpcScenarioOff() == "" {
		t.Error("the scenarios would run without IRM_GRPC_SCENARIO")
	}
	t.Setenv("IRM_GRPC_SCENARIO", "1")
	if reason := grpcScenarioOff(); reason != "" {
		t.Errorf("the scenarios would be skipped with IRM_GRPC_SCENARIO=1: %s", reason)
	}
}
