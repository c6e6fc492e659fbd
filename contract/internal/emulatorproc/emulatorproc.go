// Package emulatorproc starts the emulator as a user of the package would
// (`node dist/emulator/cli.js --port 0 --bootstrap-file F` from the repository root)
// for the tests of the contract module and of contract/head, reads its bootstrap file,
// and connects to its gRPC face: the one emulator starter of both modules.
package emulatorproc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Bootstrap is the emulator's --bootstrap-file.
type Bootstrap struct {
	APIURL       string `json:"apiUrl"`
	AuthURL      string `json:"authUrl"`
	Token        string `json:"token"`
	RootGroupUID string `json:"rootGroupUid"`
	Issuer       string `json:"issuer"`
	GRPCURL      string `json:"grpcUrl"`
}

// inputsDigest names the environment variable holding the digest of the files outside
// the Go modules that the tests run (RepositoryRoot).
const inputsDigest = "IRM_CONTRACT_INPUTS"

var listeningOn = regexp.MustCompile(`listening on (\S+)`)

// Start runs the built emulator from root (the repository root) and stops it when the
// test ends. It fails the test when `dist/` is missing or the emulator does not start
// within 30 seconds. APIURL has no trailing slash.
func Start(t testing.TB, root string) Bootstrap {
	t.Helper()
	cli := filepath.Join(root, "dist", "emulator", "cli.js")
	if _, err := os.Stat(cli); err != nil {
		t.Fatalf("no %s: run `npm run build` first", cli)
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
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() && stderr.Len() > 0 {
			t.Logf("emulator stderr:\n%s", stderr.String())
		}
	})
	ready := make(chan string, 1)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			if m := listeningOn.FindStringSubmatch(scanner.Text()); m != nil {
				select {
				case ready <- m[1]:
				default:
				}
			}
		}
	}()
	var listening string
	select {
	case listening = <-ready:
	case <-time.After(30 * time.Second):
		t.Fatalf("the emulator did not start: %s", stderr.String())
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var b Bootstrap
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("the bootstrap file is not JSON: %v", err)
	}
	if b.APIURL == "" {
		b.APIURL = listening
	}
	b.APIURL = strings.TrimSuffix(b.APIURL, "/")
	return b
}

// RepositoryRoot is the nearest folder above the test's package that holds the contract
// module (`contract/go.mod`): the repository whose built emulator the tests start, from
// the contract module or from contract/head, its module of its own.
//
// Every test that reaches outside its module (the built emulator, the SDK run by the
// front-door driver) finds it here, so here it reads IRM_CONTRACT_INPUTS, the digest of
// those files that tests/contract/contract.test.ts passes: `go test` keys a cached
// result on the environment variables a test read, so a cached PASS stands only for
// the same emulator and SDK.
func RepositoryRoot(t testing.TB) string {
	t.Helper()
	_ = os.Getenv(inputsDigest)
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "contract", "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no repository root (a folder holding contract/go.mod) above the test's package")
		}
		dir = parent
	}
}

// grpcScenarioOff says why the gRPC scenarios do not run, or "" when they do.
func grpcScenarioOff() string {
	if os.Getenv("IRM_GRPC_SCENARIO") == "" {
		return "set IRM_GRPC_SCENARIO=1 (tests/contract/contract.test.ts does)"
	}
	return ""
}

// StartGRPC starts the built emulator of the repository for a gRPC scenario and fails
// the test when it has no gRPC face. The scenarios run only with IRM_GRPC_SCENARIO set
// (tests/contract/contract.test.ts sets it, after the build), not on every `go test`.
func StartGRPC(t testing.TB) Bootstrap {
	t.Helper()
	if reason := grpcScenarioOff(); reason != "" {
		t.Skip(reason)
	}
	b := Start(t, RepositoryRoot(t))
	if b.GRPCURL == "" {
		t.Fatal("the bootstrap file has no grpcUrl: the emulator's gRPC face is off (was the descriptor set built?)")
	}
	return b
}

// Dial answers a plaintext client connection to the emulator's gRPC face, with the
// options given besides, closed when the test ends.
func Dial(t testing.TB, b Bootstrap, options ...grpc.DialOption) *grpc.ClientConn {
	t.Helper()
	options = append([]grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}, options...)
	conn, err := grpc.NewClient(strings.TrimPrefix(b.GRPCURL, "http://"), options...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
