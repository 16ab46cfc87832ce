package jsonnet

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// externalMetrics are the metrics the mixin uses that neither the operator, the
// config-reloaders, Prometheus nor Alertmanager expose on their own /metrics: `up`, which Prometheus writes for
// every scrape, and the kube-state-metrics series of the operator's Deployment.
var externalMetrics = map[string]string{
	"up": "Prometheus, one series per scrape target",
	"kube_deployment_status_replicas_available": "kube-state-metrics",
	"kube_deployment_spec_replicas":             "kube-state-metrics",
}

// TestLiveMetricNames checks every metric name the alerts, recording rules and dashboards
// use against the /metrics pages of a running operator, config-reloaders, Prometheus and
// Alertmanager, the mixin's own recording rules, and the short list of external metrics.
func TestLiveMetricNames(t *testing.T) {
	s := liveSys(t)
	m := loadMixin(t)
	exposed := map[string]string{}
	for source, url := range map[string]string{
		"operator":                     s.operatorURL,
		"config-reloader":              s.reloaderURL,
		"prometheus":                   s.prom.base + "/metrics",
		"alertmanager":                 s.alertmanagerURL + "/metrics",
		"alertmanager config-reloader": s.amReloaderURL,
	} {
		for name := range sampleNames(s.metrics(t, url)) {
			exposed[name] = source
		}
	}
	for _, r := range m.Rules.Groups {
		for _, rr := range r.Rules {
			exposed[rr.Record] = "the mixin's recording rules"
		}
	}
	used := m.usedMetrics(t)
	names := make([]string, 0, len(used))
	for n := range used {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := exposed[name]; ok {
			continue
		}
		if _, ok := externalMetrics[name]; ok {
			continue
		}
		where := used[name]
		if len(where) > 3 {
			where = append(where[:3:3], "...")
		}
		t.Errorf("metric %s is exposed by nothing the test runs: used by %s", name, strings.Join(where, "; "))
	}
	for name := range externalMetrics {
		if _, ok := used[name]; !ok {
			t.Errorf("external metric %s is declared but not used: remove it", name)
		}
		if src, ok := exposed[name]; ok {
			t.Errorf("external metric %s is exposed by the %s: remove it from the list", name, src)
		}
	}
	t.Logf("%d metric names used", len(names))

	// The operator's own metrics are all used somewhere.
	for _, n := range operatorSeries {
		base := strings.TrimSuffix(n, "_bucket")
		if !slices.ContainsFunc(names, func(u string) bool { return strings.HasPrefix(u, base) }) {
			t.Errorf("operator metric %s is used by no alert or dashboard", n)
		}
	}
}
