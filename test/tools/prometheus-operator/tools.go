//go:build tools

// Package tools pins prometheus-operator's operator binary, which the migration tests run
// against objects Lookout generated (going back) and Lookout against its objects (taking
// over).
package tools

import _ "github.com/prometheus-operator/prometheus-operator/cmd/operator"
