module github.com/lookout-operator/lookout/test/tools/kube-prometheus-stack

go 1.26.0

// The prometheus-community/helm-charts repository, served by the Go module proxy as a
// module: hack/build-tool.sh copies its kube-prometheus-stack chart (88.6.1) and the
// kube-state-metrics and prometheus-node-exporter charts it depends on into bin/charts/
// for the chart compatibility test (test/chartcompare). The module has no Go packages.
require github.com/prometheus-community/helm-charts v0.0.0-20260828105119-ed5d7d9b5933
