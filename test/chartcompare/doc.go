// Package chartcompare is the compatibility suite against the community
// kube-prometheus-stack Helm chart: it renders the chart (from bin/charts/, copied there by
// `make tools` from its Go module) with its default values, its CI values and values that
// turn on sharding, remote write, the Thanos sidecar, a ThanosRuler and three Alertmanager
// replicas; applies the monitoring.coreos.com objects, Secrets and ConfigMaps into a real
// kube-apiserver; runs prometheus-operator and then Lookout with the chart's operator
// arguments; and compares what each generates. The differences allowed are one table
// (allowed_test.go), each entry naming the ADR or documentation line behind it.
package chartcompare
