// Package grpccall holds the two assertions the gRPC scenarios of the contract module
// and of contract/head make on every call: an answer without error, and an error of one
// gRPC code.
package grpccall

import (
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Must fails the test with what when a call answers an error, else answers its value:
// grpccall.Must[*T](t, "create")(client.Create(ctx, req)).
func Must[T any](t testing.TB, what string) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return v
	}
}

// WantCode fails the test unless err is a gRPC status of code, and answers that status.
func WantCode(t testing.TB, what string, err error, code codes.Code) *status.Status {
	t.Helper()
	st, ok := status.FromError(err)
	if !ok || st.Code() != code {
		t.Fatalf("%s: want %v, got %v", what, code, err)
	}
	return st
}
