//go:build tools

// Package tools pins prometheus-operator's prometheus-config-reloader, which the
// compatibility tests run with the arguments Lookout generates (and which plays the
// upstream image in the end-to-end suite).
package tools

import _ "github.com/prometheus-operator/prometheus-operator/cmd/prometheus-config-reloader"
