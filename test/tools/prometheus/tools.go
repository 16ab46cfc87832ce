//go:build tools

// Package tools pins Prometheus and promtool for the end-to-end tests.
package tools

import (
	_ "github.com/prometheus/prometheus/cmd/prometheus"
	_ "github.com/prometheus/prometheus/cmd/promtool"
)
