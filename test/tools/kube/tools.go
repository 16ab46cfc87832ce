//go:build tools

// Package tools pins kube-apiserver for the envtest control plane.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
