package integration

import (
	"fmt"
	"testing"
	"time"
)

// TestUpstreamOperatorMetrics: the prometheus_operator_* families kube-prometheus's
// operator alerts use are exposed, with prometheus-operator's labels, and move. (Lists:
// client-go's informers list through a streaming watch on this API server, so only the
// watch counter is sure to move.)
func TestUpstreamOperatorMetrics(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "om"), newServiceMonitor(ns, "a"))
	eventually(t, 20*time.Second, "config", func() error { return configContains(ns, "om", "serviceMonitor/"+ns+"/a/0") })
	eventually(t, 10*time.Second, "prometheus_operator_* metrics", func() error {
		values := map[string]float64{}
		families, err := sharedRegistry.Gather()
		if err != nil {
			return err
		}
		for _, f := range families {
			for _, m := range f.GetMetric() {
				key := f.GetName()
				for _, l := range m.GetLabel() {
					key += fmt.Sprintf(",%s=%s", l.GetName(), l.GetValue())
				}
				switch {
				case m.GetCounter() != nil:
					values[key] = m.GetCounter().GetValue()
				case m.GetGauge() != nil:
					values[key] = m.GetGauge().GetValue()
				case m.GetHistogram() != nil:
					values[key] = float64(m.GetHistogram().GetSampleCount())
				}
			}
		}
		for key, min := range map[string]float64{
			"prometheus_operator_ready,controller=prometheus":                                                    1,
			"prometheus_operator_reconcile_operations_total,controller=prometheus":                               1,
			"prometheus_operator_reconcile_duration_seconds,controller=prometheus":                               1,
			"prometheus_operator_status_update_operations_total,controller=prometheus":                           1,
			"prometheus_operator_syncs,controller=prometheus,status=ok":                                          1,
			"prometheus_operator_managed_resources,controller=prometheus,resource=ServiceMonitor,state=selected": 1,
			"prometheus_operator_triggered_total,action=add,controller=prometheus,triggered_by=Prometheus":       1,
			"prometheus_operator_watch_operations_total":                                                         1,
			"prometheus_operator_ready,controller=alertmanager":                                                  1,
		} {
			if values[key] < min {
				return fmt.Errorf("%s = %v, want at least %v", key, values[key], min)
			}
		}
		return nil
	})
}
