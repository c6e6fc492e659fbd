package scenario

import (
	"path/filepath"
	"testing"

	"pulumi-irm/contract/internal/emulatorproc"
)

// TestOneStarterForBothModules: from contract/head, a module of its own, the one starter
// of the contract module finds the same repository (four folders up).
func TestOneStarterForBothModules(t *testing.T) {
	want, err := filepath.Abs(filepath.Join("..", "..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if got := emulatorproc.RepositoryRoot(t); got != want {
		t.Fatalf("RepositoryRoot = %s, want %s", got, want)
	}
}
