package contract

// The published definitions the suite is written against.
import (
	_ "chainguard.dev/sdk/proto/capabilities"
	_ "chainguard.dev/sdk/proto/chainguard/platform/iam/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/registry/v2beta1"
	_ "chainguard.dev/sdk/proto/chainguard/platform/vulnerabilities/v2beta1"
	_ "chainguard.dev/sdk/proto/platform/iam/v1"
	_ "chainguard.dev/sdk/proto/platform/oidc/v1"
)
