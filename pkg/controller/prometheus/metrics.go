package prometheus

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

var (
	managedResources = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lookout_managed_resources",
		Help: "Monitors and rules considered by each Prometheus, by kind and state (selected, rejected).",
	}, []string{"namespace", "name", "kind", "state"})
	configSize = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lookout_prometheus_config_bytes",
		Help: "Size of the generated configuration of each Prometheus, plain and gzip-compressed (the Secret limit is 1 MiB).",
	}, []string{"namespace", "name", "encoding"})
	configInfo = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lookout_prometheus_config_info",
		Help: "The SHA-256 of the configuration last generated for each Prometheus; the config-reloader reports the hash it loaded as reloader_config_info.",
	}, []string{"namespace", "name", "hash"})
	generateSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "lookout_config_generation_duration_seconds",
		Help:    "Time to select monitors and generate the configuration of one Prometheus.",
		Buckets: prometheus.ExponentialBuckets(0.001, 3, 10),
	}, []string{"namespace", "name"})
	reconcileFailures = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "lookout_reconcile_failures_total",
		Help: "Reconciles of a Prometheus that failed, by reason.",
	}, []string{"namespace", "name", "reason"})
	reconciled = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lookout_prometheus_reconciled",
		Help: "1 when the last reconcile of a Prometheus succeeded (its Reconciled condition is True), 0 otherwise.",
	}, []string{"namespace", "name"})
	ruleFiles = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "lookout_prometheus_rule_configmaps",
		Help: "Number of rule ConfigMaps of each Prometheus.",
	}, []string{"namespace", "name"})
)

func init() {
	metrics.Registry.MustRegister(managedResources, configSize, configInfo, generateSeconds, reconcileFailures, ruleFiles, reconciled)
}

// forgetMetrics removes the series of a deleted Prometheus.
func forgetMetrics(ns, name string) {
	l := prometheus.Labels{"namespace": ns, "name": name}
	managedResources.DeletePartialMatch(l)
	configSize.DeletePartialMatch(l)
	configInfo.DeletePartialMatch(l)
	generateSeconds.DeletePartialMatch(l)
	ruleFiles.DeletePartialMatch(l)
	reconciled.DeletePartialMatch(l)
}
