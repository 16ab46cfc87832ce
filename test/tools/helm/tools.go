//go:build tools

// Package tools pins helm, which the chart tests (test/packaging) run: lint, template and
// the values schema.
package tools

import _ "helm.sh/helm/v3/cmd/helm"
