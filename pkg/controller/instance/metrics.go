package instance

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics are the lookout_* metrics of one instance kind's controller. Every kind counts
// its reconciles and the objects it selects; the kinds that generate a configuration or
// rule ConfigMaps also set those families.
type Metrics struct {
	managedResources  *prometheus.GaugeVec
	reconcileFailures *prometheus.CounterVec
	reconciled        *prometheus.GaugeVec
	// ConfigSize is the size of the generated configuration, plain and gzip.
	ConfigSize *prometheus.GaugeVec
	// ConfigInfo carries the hash of the configuration generated last.
	ConfigInfo *prometheus.GaugeVec
	// GenerateSeconds times selection and generation of the configuration.
	GenerateSeconds *prometheus.HistogramVec
	// RuleConfigMaps counts the rule ConfigMaps of each object.
	RuleConfigMaps *prometheus.GaugeVec
}

// metricPrefix is each kind's name prefix. The Prometheus controller's metrics were the
// first and keep their names (lookout_managed_resources, lookout_prometheus_reconciled,
// ...); every other kind's are lookout_<kind>_<name>, the name without its lookout_ or
// lookout_prometheus_ prefix (lookout_alertmanager_reconciled,
// lookout_thanos_ruler_reconcile_failures_total, lookout_prometheus_agent_config_bytes).
var metricPrefix = map[string]string{
	"PrometheusAgent": "lookout_prometheus_agent_",
	"Alertmanager":    "lookout_alertmanager_",
	"ThanosRuler":     "lookout_thanos_ruler_",
}

// metricName is the name of one family for kind (see metricPrefix); short is its name
// without lookout_ and without prometheus_.
func metricName(kind, short string, prometheusScoped bool) string {
	if p, ok := metricPrefix[kind]; ok {
		return p + short
	}
	if prometheusScoped {
		return "lookout_prometheus_" + short
	}
	return "lookout_" + short
}

// NewMetrics creates the metrics of the controller of kind (Prometheus, PrometheusAgent,
// Alertmanager, ThanosRuler) and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer, kind string) (*Metrics, error) {
	noun := kind
	selected := "Objects"
	switch kind {
	case "PrometheusAgent":
		noun, selected = "Prometheus", "Monitors and rules"
	case "Prometheus":
		selected = "Monitors and rules"
	case "Alertmanager":
		selected = "AlertmanagerConfigs"
	case "ThanosRuler":
		selected = "PrometheusRules"
	}
	article := "a"
	if kind == "Alertmanager" {
		article = "an"
	}
	m := &Metrics{
		managedResources: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: metricName(kind, "managed_resources", false),
			Help: fmt.Sprintf("%s considered by each %s, by kind and state (selected, rejected).", selected, noun),
		}, []string{"namespace", "name", "kind", "state"}),
		ConfigSize: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: metricName(kind, "config_bytes", true),
			Help: fmt.Sprintf("Size of the generated configuration of each %s, plain and gzip-compressed (the Secret limit is 1 MiB).", noun),
		}, []string{"namespace", "name", "encoding"}),
		ConfigInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: metricName(kind, "config_info", true),
			Help: fmt.Sprintf("The name of the configuration last generated for each %s (the SHA-256 of its chunks' SHA-256, ADR 41); the config-reloader reports the name it loaded as reloader_config_info.", noun),
		}, []string{"namespace", "name", "hash"}),
		GenerateSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    metricName(kind, "config_generation_duration_seconds", false),
			Help:    fmt.Sprintf("Time to select %s and generate the configuration of one %s.", map[bool]string{true: "monitors", false: "the selected objects"}[noun == "Prometheus"], noun),
			Buckets: prometheus.ExponentialBuckets(0.001, 3, 10),
		}, []string{"namespace", "name"}),
		reconcileFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: metricName(kind, "reconcile_failures_total", false),
			Help: fmt.Sprintf("Reconciles of %s %s that failed, by reason.", article, noun),
		}, []string{"namespace", "name", "reason"}),
		reconciled: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: metricName(kind, "reconciled", true),
			Help: fmt.Sprintf("1 when the last reconcile of %s %s succeeded (its Reconciled condition is True), 0 otherwise.", article, noun),
		}, []string{"namespace", "name"}),
		RuleConfigMaps: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: metricName(kind, "rule_configmaps", true),
			Help: fmt.Sprintf("Number of rule ConfigMaps of each %s.", noun),
		}, []string{"namespace", "name"}),
	}
	if err := promreg.Register(reg, fmt.Sprintf("%s controller metrics", kind), m.collectors()...); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *Metrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.managedResources, m.ConfigSize, m.ConfigInfo, m.GenerateSeconds, m.reconcileFailures, m.reconciled, m.RuleConfigMaps}
}

// SetConfigInfo records the hash of the configuration generated last for an object.
func (m *Metrics) SetConfigInfo(ns, name, hash string) {
	m.ConfigInfo.DeletePartialMatch(prometheus.Labels{"namespace": ns, "name": name})
	m.ConfigInfo.WithLabelValues(ns, name, hash).Set(1)
}

// Forget removes the series of an object that is gone or no longer managed.
func (m *Metrics) Forget(ns, name string) {
	l := prometheus.Labels{"namespace": ns, "name": name}
	for _, c := range []interface {
		DeletePartialMatch(prometheus.Labels) int
	}{m.managedResources, m.ConfigSize, m.ConfigInfo, m.GenerateSeconds, m.RuleConfigMaps, m.reconciled, m.reconcileFailures} {
		c.DeletePartialMatch(l)
	}
}
