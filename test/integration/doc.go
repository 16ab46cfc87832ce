// Package integration tests the operator against a real kube-apiserver and etcd: one
// control plane and one operator for the whole package, one namespace per test.
package integration
