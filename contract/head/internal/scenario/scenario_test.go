package scenario

import "testing"

// TestRedacted: a failure prints an answer without its SCIM token or invite code.
func TestRedacted(t *testing.T) {
	raw := []byte(`{"token": "cgscim_0123", "etag":"e1", "code":"invite-secret", "error":{"code":5}}`)
	got := string(redacted(raw))
	want := `{"token":"[redacted]", "etag":"e1", "code":"[redacted]", "error":{"code":5}}`
	if got != want {
		t.Fatalf("redacted:\n got %s\nwant %s", got, want)
	}
}
