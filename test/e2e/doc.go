// Package e2e is the end-to-end suite: the real operator, config-reloader, Prometheus and
// Alertmanager binaries against a real kube-apiserver and etcd, with no mocks.
//
// There is no kubelet: the suite plays it for the Prometheus and Alertmanager pods the
// operator generates, every replica of a StatefulSet (kubelet_test.go). It runs in its own network and mount namespaces (TestMain re-executes
// the test binary under them), gives every pod its own network namespace on a bridge, and
// never sends a packet outside those namespaces. The files are built only with the e2e
// tag; run them with `make test-e2e`. Documentation/e2e.md explains the design.
package e2e
