//go:build tools

// Package tools pins Thanos, whose sidecar Lookout generates for Prometheus.spec.thanos;
// the end-to-end suite runs the real sidecar in the generated pod and a real
// `thanos query` against its store API.
package tools

import _ "github.com/thanos-io/thanos/cmd/thanos"
