package trctrl

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// TestLookoutMetrics: a ThanosRuler's reconcile sets the lookout_thanos_ruler_* families
// as a Prometheus's sets lookout_*: its rule ConfigMaps, the PrometheusRules it selected,
// whether it reconciled and how long selection and generation took.
func TestLookoutMetrics(t *testing.T) {
	f := newFixture(t, Config{}, thanosRuler(), rule("app", "r", "up == 0"))
	reg := prometheus.NewPedanticRegistry()
	m, err := instance.NewMetrics(reg, "ThanosRuler")
	if err != nil {
		t.Fatal(err)
	}
	f.r.Metrics = m
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(f.r.Metrics.RuleConfigMaps.WithLabelValues("mon", "tr")); got != 1 {
		t.Errorf("rule_configmaps %v, want 1", got)
	}
	want := `
# HELP lookout_thanos_ruler_managed_resources PrometheusRules considered by each ThanosRuler, by kind and state (selected, rejected).
# TYPE lookout_thanos_ruler_managed_resources gauge
lookout_thanos_ruler_managed_resources{kind="PrometheusRule",name="tr",namespace="mon",state="rejected"} 0
lookout_thanos_ruler_managed_resources{kind="PrometheusRule",name="tr",namespace="mon",state="selected"} 1
# HELP lookout_thanos_ruler_reconciled 1 when the last reconcile of a ThanosRuler succeeded (its Reconciled condition is True), 0 otherwise.
# TYPE lookout_thanos_ruler_reconciled gauge
lookout_thanos_ruler_reconciled{name="tr",namespace="mon"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "lookout_thanos_ruler_managed_resources", "lookout_thanos_ruler_reconciled"); err != nil {
		t.Error(err)
	}
	if n, err := testutil.GatherAndCount(reg, "lookout_thanos_ruler_config_generation_duration_seconds"); err != nil || n != 1 {
		t.Errorf("config_generation_duration_seconds: %d series, %v", n, err)
	}
}
