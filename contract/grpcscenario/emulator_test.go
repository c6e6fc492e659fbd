package grpcscenario

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"google.golang.org/grpc/credentials"

	"chainguard.dev/sdk/auth"
	clients "chainguard.dev/sdk/proto/chainguard/platform/clients/v2beta1"

	"pulumi-irm/contract/internal/emulatorproc"
)

// bootstrap is the emulator's --bootstrap-file.
type bootstrap = emulatorproc.Bootstrap

// startEmulator starts the built emulator with its gRPC face (emulatorproc.StartGRPC).
var startEmulator = emulatorproc.StartGRPC

// platformClients are the platform's own Go clients on the emulator's gRPC face, sending
// token as the whole authorization value (as they do), or nothing when token is empty;
// closed when the test ends.
func platformClients(t *testing.T, ctx context.Context, b bootstrap, token string) clients.Clients {
	t.Helper()
	var cred credentials.PerRPCCredentials
	if token != "" {
		cred = auth.NewFromToken(ctx, token, false)
	}
	c, err := clients.NewClients(ctx, b.GRPCURL, "grpcscenario", cred)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
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
