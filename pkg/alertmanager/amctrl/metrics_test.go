package amctrl

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// TestLookoutMetrics: an Alertmanager's reconcile sets the lookout_alertmanager_* families
// as a Prometheus's sets lookout_*: reconciled, config size and the hash of the
// configuration generated last, the AlertmanagerConfigs it selected and how long
// generation took.
func TestLookoutMetrics(t *testing.T) {
	f := newFixture(t, Config{}, nil, alertmanager("main"))
	reg := prometheus.NewPedanticRegistry()
	m, err := instance.NewMetrics(reg, "Alertmanager")
	if err != nil {
		t.Fatal(err)
	}
	f.r.Metrics = m
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	cfg, _ := f.generated("main")
	if got := testutil.ToFloat64(m.ConfigSize.WithLabelValues("mon", "main", "plain")); got != float64(len(cfg)) {
		t.Errorf("config_bytes plain %v, want %d", got, len(cfg))
	}
	if got := testutil.ToFloat64(m.ConfigInfo.WithLabelValues("mon", "main", confighash.Sum([]byte(cfg)))); got != 1 || testutil.CollectAndCount(m.ConfigInfo) != 1 {
		t.Errorf("config_info: %v, %d series", got, testutil.CollectAndCount(m.ConfigInfo))
	}
	want := `
# HELP lookout_alertmanager_managed_resources AlertmanagerConfigs considered by each Alertmanager, by kind and state (selected, rejected).
# TYPE lookout_alertmanager_managed_resources gauge
lookout_alertmanager_managed_resources{kind="AlertmanagerConfig",name="main",namespace="mon",state="rejected"} 0
lookout_alertmanager_managed_resources{kind="AlertmanagerConfig",name="main",namespace="mon",state="selected"} 0
# HELP lookout_alertmanager_reconciled 1 when the last reconcile of an Alertmanager succeeded (its Reconciled condition is True), 0 otherwise.
# TYPE lookout_alertmanager_reconciled gauge
lookout_alertmanager_reconciled{name="main",namespace="mon"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "lookout_alertmanager_managed_resources", "lookout_alertmanager_reconciled"); err != nil {
		t.Error(err)
	}
	if n, err := testutil.GatherAndCount(reg, "lookout_alertmanager_config_generation_duration_seconds"); err != nil || n != 1 {
		t.Errorf("config_generation_duration_seconds: %d series, %v", n, err)
	}
}
