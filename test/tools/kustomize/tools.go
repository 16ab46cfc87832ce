//go:build tools

// Package tools pins kustomize, which the packaging tests (test/packaging) run on the
// config/ base and overlays.
package tools

import _ "sigs.k8s.io/kustomize/kustomize/v5"
