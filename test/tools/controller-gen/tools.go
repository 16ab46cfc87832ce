//go:build tools

// Package tools pins controller-gen, which generates the CRD manifests.
package tools

import _ "sigs.k8s.io/controller-tools/cmd/controller-gen"
