package opmetrics

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientmetrics "k8s.io/client-go/tools/metrics"
	"k8s.io/utils/ptr"
)

// labelsOf returns, per family, the label names of its first series.
func labelsOf(t *testing.T, g prometheus.Gatherer) map[string][]string {
	t.Helper()
	mfs, err := g.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, mf := range mfs {
		var names []string
		for _, l := range mf.GetMetric()[0].GetLabel() {
			names = append(names, l.GetName())
		}
		out[mf.GetName()] = names
	}
	return out
}

// The operator-wide families have prometheus-operator v0.93's names and labels; the work
// queue families are read from controller-runtime's, even from the registry they are
// registered on (as in the operator).
func TestOperatorFamilies(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	depth := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "workqueue_depth", Help: "d"}, []string{"name", "controller", "priority"})
	adds := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "workqueue_adds_total", Help: "a"}, []string{"name", "controller"})
	latency := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "workqueue_queue_duration_seconds", Help: "l", Buckets: []float64{1, 10}}, []string{"name", "controller"})
	reg.MustRegister(depth, adds, latency)
	depth.WithLabelValues("prometheus", "prometheus", "0").Set(2)
	depth.WithLabelValues("prometheus", "prometheus", "-100").Set(3)
	depth.WithLabelValues("kubelet", "kubelet", "0").Set(7) // no prometheus-operator counterpart
	adds.WithLabelValues("thanos-ruler", "thanos-ruler").Add(4)
	latency.WithLabelValues("alertmanager", "alertmanager").Observe(0.5)
	latency.WithLabelValues("alertmanager", "alertmanager").Observe(5)
	if err := RegisterOperator(reg, map[string]bool{"PrometheusAgentDaemonSet": true, "PrometheusTopologySharding": false}, reg); err != nil {
		t.Fatal(err)
	}
	want := `
# HELP prometheus_operator_feature_gate Reports about the Prometheus operator feature gates. A value of 1 means that the feature gate is enabled. Otherwise the value is 0.
# TYPE prometheus_operator_feature_gate gauge
prometheus_operator_feature_gate{name="PrometheusAgentDaemonSet"} 1
prometheus_operator_feature_gate{name="PrometheusTopologySharding"} 0
# HELP prometheus_operator_workqueue_adds_total Total number of additions to the queue
# TYPE prometheus_operator_workqueue_adds_total counter
prometheus_operator_workqueue_adds_total{controller="thanos",name="thanosruler"} 4
# HELP prometheus_operator_workqueue_depth Depth of the queue
# TYPE prometheus_operator_workqueue_depth gauge
prometheus_operator_workqueue_depth{controller="prometheus",name="prometheus"} 5
# HELP prometheus_operator_workqueue_latency_seconds Histogram of latency for the queue
# TYPE prometheus_operator_workqueue_latency_seconds histogram
prometheus_operator_workqueue_latency_seconds_bucket{controller="alertmanager",name="alertmanager",le="1"} 1
prometheus_operator_workqueue_latency_seconds_bucket{controller="alertmanager",name="alertmanager",le="10"} 2
prometheus_operator_workqueue_latency_seconds_bucket{controller="alertmanager",name="alertmanager",le="+Inf"} 2
prometheus_operator_workqueue_latency_seconds_sum{controller="alertmanager",name="alertmanager"} 5.5
prometheus_operator_workqueue_latency_seconds_count{controller="alertmanager",name="alertmanager"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "prometheus_operator_feature_gate", "prometheus_operator_workqueue_adds_total",
		"prometheus_operator_workqueue_depth", "prometheus_operator_workqueue_latency_seconds"); err != nil {
		t.Fatal(err)
	}

	// client-go reports through the tee init installed.
	clientmetrics.RequestResult.Increment(context.Background(), "200", "GET", "api")
	clientmetrics.RequestLatency.Observe(context.Background(), "GET", url.URL{Path: "/api/v1/pods"}, time.Millisecond)
	clientmetrics.RateLimiterLatency.Observe(context.Background(), "GET", url.URL{Path: "/api/v1/pods"}, time.Millisecond)

	got := labelsOf(t, reg)
	for name, labels := range map[string]string{
		"prometheus_operator_build_info":                                      "branch,goarch,goos,goversion,revision,tags,version",
		"prometheus_operator_kubernetes_client_http_requests_total":           "status_code",
		"prometheus_operator_kubernetes_client_http_request_duration_seconds": "endpoint",
		"prometheus_operator_kubernetes_client_rate_limiter_duration_seconds": "endpoint",
	} {
		if strings.Join(got[name], ",") != labels {
			t.Errorf("%s: labels %v, want %s", name, got[name], labels)
		}
	}
	// A second operator in the process (tests) registers the shared client families again.
	if err := RegisterOperator(prometheus.NewRegistry(), nil, nil); err != nil {
		t.Fatal(err)
	}
}

// The spec families of prometheus-operator's per-kind collectors, labelled namespace and
// name, follow ObserveSpec and Forget.
func TestSpecFamilies(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	c, err := NewController(reg, "prometheus")
	if err != nil {
		t.Fatal(err)
	}
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "k8s"}}
	p.Spec.Replicas, p.Spec.Shards, p.Spec.EnforcedSampleLimit = ptr.To(int32(2)), ptr.To(int32(3)), ptr.To(int64(5000))
	c.ObserveSpec("mon/k8s", p)
	a := &monitoringv1alpha1.PrometheusAgent{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "agent"}}
	c.ObserveSpec("mon/agent", a)
	want := `
# HELP prometheus_operator_prometheus_enforced_sample_limit Global limit on the number of scraped samples per scrape target.
# TYPE prometheus_operator_prometheus_enforced_sample_limit gauge
prometheus_operator_prometheus_enforced_sample_limit{controller="prometheus",name="k8s",namespace="mon"} 5000
# HELP prometheus_operator_spec_replicas Number of expected replicas for the object.
# TYPE prometheus_operator_spec_replicas gauge
prometheus_operator_spec_replicas{controller="prometheus",name="agent",namespace="mon"} 1
prometheus_operator_spec_replicas{controller="prometheus",name="k8s",namespace="mon"} 2
# HELP prometheus_operator_spec_shards Number of expected shards for the object.
# TYPE prometheus_operator_spec_shards gauge
prometheus_operator_spec_shards{controller="prometheus",name="agent",namespace="mon"} 1
prometheus_operator_spec_shards{controller="prometheus",name="k8s",namespace="mon"} 3
`
	names := []string{"prometheus_operator_prometheus_enforced_sample_limit", "prometheus_operator_spec_replicas", "prometheus_operator_spec_shards"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}
	c.Forget("mon/k8s")
	c.Forget("mon/agent")
	am := &monitoringv1.Alertmanager{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "main"}}
	am.Spec.Replicas = ptr.To(int32(3))
	c.ObserveSpec("mon/main", am)
	want = `
# HELP prometheus_operator_spec_replicas Number of expected replicas for the object.
# TYPE prometheus_operator_spec_replicas gauge
prometheus_operator_spec_replicas{controller="prometheus",name="main",namespace="mon"} 3
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}
}
