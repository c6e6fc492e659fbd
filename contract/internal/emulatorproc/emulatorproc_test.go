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

// TestStartGRPCWaitsForTheSwitch: without IRM_GRPC_SCENARIO a gRPC scenario is skipped
// before any emulator starts.
func TestStartGRPCWaitsForTheSwitch(t *testing.T) {
	t.Setenv("IRM_GRPC_SCENARIO", "")
	skipped := false
	t.Run("scenario", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		StartGRPC(t)
		t.Error("StartGRPC went on without IRM_GRPC_SCENARIO")
	})
	if !skipped {
		t.Fatal("the scenario was not skipped")
	}
}
