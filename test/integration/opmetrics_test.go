package integration

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"k8s.io/utils/ptr"
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
				case m.GetSummary() != nil:
					values[key] = float64(m.GetSummary().GetSampleCount())
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
			// Issue 33: the families of prometheus-operator v0.93 Lookout lacked.
			"prometheus_operator_spec_replicas,controller=prometheus,name=om,namespace=" + ns:           1,
			"prometheus_operator_spec_shards,controller=prometheus,name=om,namespace=" + ns:             1,
			"prometheus_operator_feature_gate,name=PrometheusTopologySharding":                          1,
			"prometheus_operator_kubernetes_client_http_requests_total,status_code=200":                 1,
			"prometheus_operator_workqueue_adds_total,controller=prometheus,name=prometheus":            1,
			"prometheus_operator_workqueue_work_duration_seconds,controller=prometheus,name=prometheus": 1,
		} {
			if values[key] < min {
				return fmt.Errorf("%s = %v, want at least %v", key, values[key], min)
			}
		}
		// The families whose values need not move, with prometheus-operator's labels.
		for _, key := range []string{
			"prometheus_operator_feature_gate,name=PrometheusAgentDaemonSet",
			"prometheus_operator_workqueue_depth,controller=prometheus,name=prometheus",
			"prometheus_operator_workqueue_latency_seconds,controller=prometheus,name=prometheus",
			"prometheus_operator_workqueue_unfinished_work_seconds,controller=prometheus,name=prometheus",
			"prometheus_operator_workqueue_longest_running_processor_seconds,controller=prometheus,name=prometheus",
			"prometheus_operator_workqueue_retries_total,controller=prometheus,name=prometheus",
			"prometheus_operator_workqueue_adds_total,controller=alertmanager,name=alertmanager",
		} {
			if _, ok := values[key]; !ok {
				return fmt.Errorf("no %s", key)
			}
		}
		for _, prefix := range []string{
			"prometheus_operator_build_info,branch=,goarch=",
			"prometheus_operator_kubernetes_client_http_request_duration_seconds,endpoint=/",
			"prometheus_operator_kubernetes_client_rate_limiter_duration_seconds,endpoint=/",
		} {
			found := false
			for key := range values {
				found = found || strings.HasPrefix(key, prefix)
			}
			if !found {
				return fmt.Errorf("no series %s...", prefix)
			}
		}
		return nil
	})
}

// sharedInformerCounts are the families Lookout counts once for the process, without the
// controller label: its controllers share their informers (Documentation/operator.md).
var sharedInformerCounts = map[string]bool{
	"prometheus_operator_list_operations_total": true, "prometheus_operator_list_operations_failed_total": true,
	"prometheus_operator_watch_operations_total": true, "prometheus_operator_watch_operations_failed_total": true,
}

// TestOperatorMetricFamiliesAsUpstream scrapes the real prometheus-operator, running on a
// Prometheus of its own, and checks that every prometheus_operator_* family it exposes
// is in Lookout's registry with the same label names (issue 33).
func TestOperatorMetricFamiliesAsUpstream(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	p := newPrometheus(ns, "upstream", func(p *monitoringv1.Prometheus) {
		p.Labels = map[string]string{dedicatedLabel: ns}
		p.Spec.EnforcedSampleLimit = ptr.To(int64(1000))
	})
	create(t, p, newServiceMonitor(ns, "web"))
	stop, addr := startPrometheusOperatorAt(t, ns)
	defer stop()
	labelNames := func(mf *dto.MetricFamily) string {
		var names []string
		for _, l := range mf.GetMetric()[0].GetLabel() {
			names = append(names, l.GetName())
		}
		sort.Strings(names)
		return strings.Join(names, ",")
	}
	upstream := map[string]string{}
	eventually(t, 60*time.Second, "prometheus-operator's metrics with its Prometheus", func() error {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		parser := expfmt.NewTextParser(model.UTF8Validation)
		mfs, err := parser.TextToMetricFamilies(resp.Body)
		if err != nil {
			return err
		}
		if _, ok := mfs["prometheus_operator_spec_replicas"]; !ok {
			return fmt.Errorf("no prometheus_operator_spec_replicas yet")
		}
		for name, mf := range mfs {
			if strings.HasPrefix(name, "prometheus_operator_") && len(mf.GetMetric()) > 0 {
				upstream[name] = labelNames(mf)
			}
		}
		return nil
	})
	// Lookout's shared operator reconciles a Prometheus with the same limit.
	create(t, newPrometheus(ns, "lookout", func(p *monitoringv1.Prometheus) { p.Spec.EnforcedSampleLimit = ptr.To(int64(1000)) }))
	eventually(t, 30*time.Second, "the same families in Lookout's registry", func() error {
		mfs, err := sharedRegistry.Gather()
		if err != nil {
			return err
		}
		lookout := map[string]string{}
		for _, mf := range mfs {
			if len(mf.GetMetric()) > 0 {
				lookout[mf.GetName()] = labelNames(mf)
			}
		}
		var missing []string
		for name, labels := range upstream {
			if got, ok := lookout[name]; ok && got == "" && sharedInformerCounts[name] && labels == "controller" {
				continue
			}
			if got, ok := lookout[name]; !ok || got != labels {
				missing = append(missing, fmt.Sprintf("%s{%s} (Lookout: %q)", name, labels, got))
			}
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			return fmt.Errorf("missing or labelled differently:\n%s", strings.Join(missing, "\n"))
		}
		return nil
	})
}
