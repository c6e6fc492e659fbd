package grpcscenario

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// bootstrap is the emulator's --bootstrap-file.
type bootstrap struct {
	APIURL       string `json:"apiUrl"`
	AuthURL      string `json:"authUrl"`
	Token        string `json:"token"`
	RootGroupUID string `json:"rootGroupUid"`
	Issuer       string `json:"issuer"`
	GRPCURL      string `json:"grpcUrl"`
}

// startEmulator runs `node dist/emulator/cli.js --port 0 --bootstrap-file F` from the
// repository root, as a user of the package would, and stops it when the test ends.
func startEmulator(t *testing.T) bootstrap {
	t.Helper()
	// Run by tests/emulator/grpc-go-clients.test.ts (after the build), not by every
	// `go test ./...` of the contract module.
	if os.Getenv("IRM_GRPC_SCENARIO") == "" {
		t.Skip("set IRM_GRPC_SCENARIO=1 (tests/emulator/grpc-go-clients.test.ts does)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(root, "dist", "emulator", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		t.Skipf("%s is missing: run `npm run build` first", cli)
	}
	file := filepath.Join(t.TempDir(), "bootstrap.json")
	cmd := exec.Command("node", cli, "--port", "0", "--bootstrap-file", file)
	cmd.Dir = root
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("emulator stderr:\n%s", stderr.String())
		}
	})
	ready := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if line := scanner.Text(); strings.HasPrefix(line, "listening on ") {
				ready <- strings.TrimPrefix(line, "listening on ")
			}
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("the emulator did not start: %s", stderr.String())
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b bootstrap
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
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
