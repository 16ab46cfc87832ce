//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// TestServiceMonitor: a ServiceMonitor makes the sample app a target of a real Prometheus,
// discovered through the API server, up, with the labels prometheus-operator gives it and
// the ServiceMonitor's relabelings; an edit of the relabelings reaches the target; metric
// relabelings drop a metric; deleting the ServiceMonitor removes the target.
func TestServiceMonitor(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(1))
	mustCreate(t, sc.prometheus(sc.ns, "main"))
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}

	sm := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
			Endpoints: []monitoringv1.Endpoint{{
				Port:     samplePortName,
				Interval: "1s",
				RelabelConfigs: []monitoringv1.RelabelConfig{
					{TargetLabel: "team", Replacement: ptr.To("blue")},
					{SourceLabels: []monitoringv1.LabelName{"__meta_kubernetes_pod_label_app"}, TargetLabel: "app"},
				},
				MetricRelabelConfigs: []monitoringv1.RelabelConfig{
					{SourceLabels: []monitoringv1.LabelName{"__name__"}, Regex: "e2e_sample_scrapes_total", Action: "drop"},
				},
			}},
		},
	}
	mustCreate(t, sm)
	pool := fmt.Sprintf("serviceMonitor/%s/sample/0", sc.ns)
	in := app.instances[0]
	want := map[string]string{
		"job": "sample", "namespace": sc.ns, "service": "sample", "pod": in.pod, "container": "app",
		"endpoint": samplePortName, "instance": in.address(), "team": "blue", "app": "sample",
	}
	sc.step("ServiceMonitor created: target up with the expected labels", 60*time.Second, func() error {
		return oneTargetUp(prom, pool, want)
	})
	sc.step("ServiceMonitor status: Accepted by Prometheus main", 30*time.Second, func() error {
		var got monitoringv1.ServiceMonitor
		if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: "sample"}, &got); err != nil {
			return err
		}
		return accepted(got.Status.Bindings, sc.ns, "main", true)
	})

	sc.step("metric relabeling drops e2e_sample_scrapes_total", 30*time.Second, func() error {
		kept, err := prom.query(`e2e_sample_gauge{team="blue"}`)
		if err != nil {
			return err
		}
		dropped, err := prom.query(`e2e_sample_scrapes_total`)
		if err != nil {
			return err
		}
		if len(kept) != 1 || len(dropped) != 0 {
			return fmt.Errorf("want 1 e2e_sample_gauge series and no e2e_sample_scrapes_total, got %d and %d", len(kept), len(dropped))
		}
		return nil
	})

	// Edit a relabeling: the new label reaches the target.
	mustUpdate(t, sm, func() { sm.Spec.Endpoints[0].RelabelConfigs[0].Replacement = ptr.To("green") })
	want["team"] = "green"
	sc.step("relabeling edited: target relabelled team=green", 60*time.Second, func() error {
		return oneTargetUp(prom, pool, want)
	})

	sc.step("config loaded by the reloader is the one the operator generated", 30*time.Second, func() error {
		return configHashesMatch(mainOperator, pd, sc.ns, "main")
	})

	if err := s.k8s.Delete(ctx, sm); err != nil {
		t.Fatal(err)
	}
	sc.step("ServiceMonitor deleted: target gone", 60*time.Second, func() error {
		ts, err := prom.activeTargets("")
		if err != nil {
			return err
		}
		for _, tg := range ts {
			if tg.ScrapePool == pool {
				return fmt.Errorf("target %s still active", tg.ScrapeURL)
			}
		}
		return nil
	})
}

// oneTargetUp checks that pool has exactly one active target, up, with at least the
// labels in want.
func oneTargetUp(prom promAPI, pool string, want map[string]string) error {
	ts, err := prom.activeTargets(pool)
	if err != nil {
		return err
	}
	if len(ts) != 1 {
		return fmt.Errorf("scrape pool %s: %d active targets, want 1", pool, len(ts))
	}
	tg := ts[0]
	if tg.Health != "up" {
		return fmt.Errorf("target %s is %q: %s", tg.ScrapeURL, tg.Health, tg.LastError)
	}
	for k, v := range want {
		if tg.Labels[k] != v {
			return fmt.Errorf("target %s: label %s=%q, want %q (labels %v)", tg.ScrapeURL, k, tg.Labels[k], v, tg.Labels)
		}
	}
	return nil
}

// accepted checks the Accepted condition of the binding to Prometheus ns/name.
func accepted(bindings []monitoringv1.WorkloadBinding, ns, name string, want bool) error {
	_, err := acceptedBy(bindings, monitoringv1.PrometheusName, ns, name, want)
	return err
}

// acceptedBy checks the Accepted condition of the binding to the workload resource
// ("prometheuses", "alertmanagers") ns/name and returns it.
func acceptedBy(bindings []monitoringv1.WorkloadBinding, resource, ns, name string, want bool) (*monitoringv1.ConfigResourceCondition, error) {
	for _, b := range bindings {
		if b.Resource != resource || b.Namespace != ns || b.Name != name {
			continue
		}
		for i, c := range b.Conditions {
			if c.Type != monitoringv1.Accepted {
				continue
			}
			if (c.Status == monitoringv1.ConditionTrue) != want {
				return nil, fmt.Errorf("Accepted=%s (%s: %s), want %v", c.Status, c.Reason, c.Message, want)
			}
			return &b.Conditions[i], nil
		}
	}
	return nil, fmt.Errorf("no Accepted condition for %s %s/%s in %+v", resource, ns, name, bindings)
}

// TestPodMonitor: a PodMonitor makes each sample pod a target through pod discovery, with
// prometheus-operator's labels; a pod that failed is dropped.
func TestPodMonitor(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(2))
	mustCreate(t, sc.prometheus(sc.ns, "main"), &monitoringv1.PodMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: sc.ns, Name: "sample", Labels: sc.labels()},
		Spec: monitoringv1.PodMonitorSpec{
			Selector:            metav1.LabelSelector{MatchLabels: map[string]string{"app": app.name}},
			PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr.To(samplePortName), Interval: "1s"}},
		},
	})
	prom := promAPI{base: sc.runPods(sc.ns, statefulSetName("main", 0))[0].url("web")}
	pool := fmt.Sprintf("podMonitor/%s/sample/0", sc.ns)
	targets := func(want ...*sampleInstance) error {
		ts, err := prom.activeTargets(pool)
		if err != nil {
			return err
		}
		if len(ts) != len(want) {
			return fmt.Errorf("%d active targets, want %d", len(ts), len(want))
		}
		byPod := map[string]target{}
		for _, tg := range ts {
			byPod[tg.Labels["pod"]] = tg
		}
		for _, in := range want {
			tg, ok := byPod[in.pod]
			if !ok {
				return fmt.Errorf("no target for pod %s", in.pod)
			}
			if tg.Health != "up" {
				return fmt.Errorf("target %s is %q: %s", tg.ScrapeURL, tg.Health, tg.LastError)
			}
			for k, v := range map[string]string{"job": sc.ns + "/sample", "namespace": sc.ns, "container": "app", "endpoint": samplePortName, "instance": in.address()} {
				if tg.Labels[k] != v {
					return fmt.Errorf("target %s: label %s=%q, want %q (labels %v)", tg.ScrapeURL, k, tg.Labels[k], v, tg.Labels)
				}
			}
		}
		return nil
	}
	sc.step("PodMonitor: both pods are targets, up, with the expected labels", 60*time.Second, func() error {
		return targets(app.instances...)
	})

	var failed corev1.Pod
	if err := s.k8s.Get(ctx, types.NamespacedName{Namespace: sc.ns, Name: app.instances[1].pod}, &failed); err != nil {
		t.Fatal(err)
	}
	failed.Status.Phase = corev1.PodFailed
	if err := s.k8s.Status().Update(ctx, &failed); err != nil {
		t.Fatal(err)
	}
	sc.step("pod failed: its target dropped", 60*time.Second, func() error {
		return targets(app.instances[0])
	})
}
