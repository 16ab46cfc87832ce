package prometheus

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics are the Prometheus controller's metrics of one operator instance.
type Metrics struct {
	managedResources  *prometheus.GaugeVec
	configSize        *prometheus.GaugeVec
	configInfo        *prometheus.GaugeVec
	generateSeconds   *prometheus.HistogramVec
	reconcileFailures *prometheus.CounterVec
	reconciled        *prometheus.GaugeVec
	ruleConfigMaps    *prometheus.GaugeVec
}

// NewMetrics creates the metrics of the controller of kind k and registers them on reg
// (nil: not registered). The Prometheus controller's are named lookout_*; the
// PrometheusAgent controller's lookout_prometheus_agent_* (lookout_prometheus_config_bytes
// becomes lookout_prometheus_agent_config_bytes, lookout_managed_resources becomes
// lookout_prometheus_agent_managed_resources).
func NewMetrics(reg prometheus.Registerer, k *Kind) (*Metrics, error) {
	if k == nil {
		k = PrometheusKind
	}
	name := func(n string) string {
		if !k.agent() {
			return n
		}
		n = strings.TrimPrefix(n, "lookout_")
		n = strings.TrimPrefix(n, "prometheus_")
		return "lookout_prometheus_agent_" + n
	}
	m := &Metrics{
		managedResources: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: name("lookout_managed_resources"),
			Help: "Monitors and rules considered by each Prometheus, by kind and state (selected, rejected).",
		}, []string{"namespace", "name", "kind", "state"}),
		configSize: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: name("lookout_prometheus_config_bytes"),
			Help: "Size of the generated configuration of each Prometheus, plain and gzip-compressed (the Secret limit is 1 MiB).",
		}, []string{"namespace", "name", "encoding"}),
		configInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: name("lookout_prometheus_config_info"),
			Help: "The SHA-256 of the configuration last generated for each Prometheus; the config-reloader reports the hash it loaded as reloader_config_info.",
		}, []string{"namespace", "name", "hash"}),
		generateSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    name("lookout_config_generation_duration_seconds"),
			Help:    "Time to select monitors and generate the configuration of one Prometheus.",
			Buckets: prometheus.ExponentialBuckets(0.001, 3, 10),
		}, []string{"namespace", "name"}),
		reconcileFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: name("lookout_reconcile_failures_total"),
			Help: "Reconciles of a Prometheus that failed, by reason.",
		}, []string{"namespace", "name", "reason"}),
		reconciled: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: name("lookout_prometheus_reconciled"),
			Help: "1 when the last reconcile of a Prometheus succeeded (its Reconciled condition is True), 0 otherwise.",
		}, []string{"namespace", "name"}),
		ruleConfigMaps: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: name("lookout_prometheus_rule_configmaps"),
			Help: "Number of rule ConfigMaps of each Prometheus.",
		}, []string{"namespace", "name"}),
	}
	if err := promreg.Register(reg, fmt.Sprintf("%s controller metrics", k.Kind), m.collectors()...); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.managedResources, m.configSize, m.configInfo, m.generateSeconds, m.reconcileFailures, m.reconciled, m.ruleConfigMaps}
}

// forget removes the series of a deleted Prometheus.
func (m *Metrics) forget(ns, name string) {
	l := prometheus.Labels{"namespace": ns, "name": name}
	m.managedResources.DeletePartialMatch(l)
	m.configSize.DeletePartialMatch(l)
	m.configInfo.DeletePartialMatch(l)
	m.generateSeconds.DeletePartialMatch(l)
	m.ruleConfigMaps.DeletePartialMatch(l)
	m.reconciled.DeletePartialMatch(l)
	m.reconcileFailures.DeletePartialMatch(l)
}
