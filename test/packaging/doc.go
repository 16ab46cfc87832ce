// Package packaging tests how Lookout is shipped: the Helm chart (charts/lookout), the
// kustomize base and overlays (config/), the raw install manifests and the Dockerfile.
// Rendered manifests are server-side dry-run against a real kube-apiserver (envtest,
// with the CRDs installed), so a field the API server refuses fails the test. helm and
// kustomize are built from their pinned modules into bin/ (hack/build-tool.sh).
package packaging
