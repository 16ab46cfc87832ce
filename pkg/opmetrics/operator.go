package opmetrics

import (
	"runtime"
	"sort"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/buildinfo"
	"github.com/lookout-operator/lookout/pkg/promreg"
)

// RegisterOperator registers the operator-wide families of prometheus-operator on reg:
// prometheus_operator_build_info (from Lookout's build), prometheus_operator_feature_gate
// (one series per gate, 1 when on), the prometheus_operator_kubernetes_client_* families
// of the process's Kubernetes clients, and prometheus_operator_workqueue_*, read from the
// work queue families controller-runtime keeps in queues (its registry).
func RegisterOperator(reg prometheus.Registerer, gates map[string]bool, queues prometheus.Gatherer) error {
	if reg == nil {
		return nil
	}
	cs := []prometheus.Collector{buildInfo(buildinfo.Get()), featureGates(gates), newWorkqueues(queues)}
	if err := promreg.Register(reg, "prometheus_operator operator metrics", cs...); err != nil {
		return err
	}
	return registerClientMetrics(reg)
}

// buildInfo is prometheus_operator_build_info: 1, labelled as the collector of
// client_golang labels it (version, revision, branch, goversion, goos, goarch, tags),
// from what Lookout knows of its build.
func buildInfo(i buildinfo.Info) prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "prometheus_operator_build_info",
		Help: "A metric with a constant '1' value labeled by version, revision, branch, goversion from which prometheus_operator was built, and the goos and goarch for the build.",
		ConstLabels: prometheus.Labels{
			"version": i.Version, "revision": i.Commit, "branch": "", "tags": "",
			"goversion": runtime.Version(), "goos": runtime.GOOS, "goarch": runtime.GOARCH,
		},
	}, func() float64 { return 1 })
}

var featureGateDesc = prometheus.NewDesc("prometheus_operator_feature_gate",
	"Reports about the Prometheus operator feature gates. A value of 1 means that the feature gate is enabled. Otherwise the value is 0.",
	[]string{"name"}, nil)

// gateCollector is prometheus_operator_feature_gate for a fixed set of gates.
type gateCollector struct {
	names []string
	on    map[string]bool
}

func featureGates(gates map[string]bool) prometheus.Collector {
	g := &gateCollector{on: map[string]bool{}}
	for n, v := range gates {
		g.names = append(g.names, n)
		g.on[n] = v
	}
	sort.Strings(g.names)
	return g
}

func (g *gateCollector) Describe(ch chan<- *prometheus.Desc) { ch <- featureGateDesc }

func (g *gateCollector) Collect(ch chan<- prometheus.Metric) {
	for _, n := range g.names {
		v := 0.0
		if g.on[n] {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(featureGateDesc, prometheus.GaugeValue, v, n)
	}
}
