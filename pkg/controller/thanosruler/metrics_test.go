package thanosruler

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// TestLookoutMetrics: a ThanosRuler's reconcile counts its rule ConfigMaps in
// lookout_thanos_ruler_rule_configmaps, as a Prometheus's does.
func TestLookoutMetrics(t *testing.T) {
	f := newFixture(t, Config{}, thanosRuler(), rule("app", "r", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(f.r.Metrics.RuleConfigMaps.WithLabelValues("mon", "tr")); got != 1 {
		t.Errorf("rule_configmaps %v, want 1", got)
	}
}
