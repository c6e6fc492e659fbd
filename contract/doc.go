// Package contract holds the project's contract suite: it judges the SDK's requests and
// the emulator's answers against the platform's published v2beta1 definitions (the Go
// module chainguard.dev/sdk), which it depends on like any Go dependency.
package contract
