package grpcscenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"pulumi-irm/contract/internal/emulatorproc"
)

// bootstrap is the emulator's --bootstrap-file.
type bootstrap = emulatorproc.Bootstrap

// startEmulator runs the built emulator from the repository root, as a user of the
// package would, and stops it when the test ends.
func startEmulator(t *testing.T) bootstrap {
	t.Helper()
	// Run by tests/contract/contract.test.ts (after the build), not by every
	// `go test ./...` of the contract module.
	if os.Getenv("IRM_GRPC_SCENARIO") == "" {
		t.Skip("set IRM_GRPC_SCENARIO=1 (tests/contract/contract.test.ts does)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	b := emulatorproc.Start(t, root)
	if b.GRPCURL == "" {
		t.Fatal("the bootstrap file has no grpcUrl: the emulator's gRPC face is off (build with Go)")
	}
	return b
}

// oidcToken asks the emulator's OIDC test issuer for an id token (an HTTP test control
// of the emulator, not part of the API).
func oidcToken(t *testing.T, b bootstrap, subject string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"subject": subject})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, b.Issuer+"/token", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || out.Token == "" {
		t.Fatalf("test issuer: status %d, %v", resp.StatusCode, err)
	}
	return out.Token
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprint(err))
	}
	return string(b)
}
