// Package testenv starts a real kube-apiserver and etcd (controller-runtime envtest) from
// the binaries hack/build-tool.sh builds into bin/, installs Lookout's CRDs and hands out
// clients. Integration tests and the local control plane of `make run` both use it.
package testenv
