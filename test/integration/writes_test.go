package integration

import (
	"fmt"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// These tests count the operator's API writes (lookout_api_writes_total). They are not
// parallel: Go runs them before the parallel tests start, so nothing else is writing.

// settle waits until the operator has made no write for a while and returns the count.
func settle(t *testing.T) float64 {
	t.Helper()
	last, since := writes(), time.Now()
	for time.Since(since) < 1500*time.Millisecond {
		time.Sleep(100 * time.Millisecond)
		if w := writes(); w != last {
			last, since = w, time.Now()
		}
	}
	return last
}

// TestZeroWritesOnResync: with nothing changed, events that reconcile the Prometheus again
// (an unrelated Secret, a label change on the Prometheus, a monitor's status update) make
// no write at all.
func TestZeroWritesOnResync(t *testing.T) {
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "quiet", func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptrInt32(2) }),
		newServiceMonitor(ns, "a"), newServiceMonitor(ns, "b"), newRule(ns, "r", alertGroup("g", "A", "up == 0")),
		newServiceMonitor(ns, "bad", func(s *monitoringv1.ServiceMonitor) {
			s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{SourceLabels: []monitoringv1.LabelName{"a"}, Regex: "(", TargetLabel: "b"}}
		}))
	eventually(t, 20*time.Second, "config", func() error { return configContains(ns, "quiet", "serviceMonitor/"+ns+"/b/0") })
	eventually(t, 10*time.Second, "statuses", func() error {
		if _, err := ruleFile(ns, "quiet", &monitoringv1.PrometheusRule{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "r"}}); err != nil {
			return err
		}
		if _, _, err := ruleBinding(ns, "r"); err != nil {
			return err
		}
		return binding(ns, "bad", monitoringv1.ConditionFalse, "InvalidConfiguration", "invalid regex")
	})
	before := settle(t)
	_, sec, _ := config(ns, "quiet")

	// Unrelated Secret, and a Secret in the same namespace nobody references.
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "unrelated"}, StringData: map[string]string{"x": "y"}})
	// A label change reconciles the Prometheus (label changes pass the event filter).
	p := newPrometheus(ns, "quiet")
	update(t, p, func() { p.Labels = map[string]string{"touched": "1"} })
	// A monitor that no Prometheus selects.
	create(t, newServiceMonitor(ns, "ignored", func(s *monitoringv1.ServiceMonitor) { s.Labels = map[string]string{"team": "nobody"} }))

	after := settle(t)
	if after != before {
		t.Errorf("the operator made %v API writes with nothing to change", after-before)
	}
	_, sec2, _ := config(ns, "quiet")
	if sec.ResourceVersion != sec2.ResourceVersion {
		t.Errorf("config Secret rewritten: resourceVersion %s → %s", sec.ResourceVersion, sec2.ResourceVersion)
	}
}

// TestOneWritePerMonitorChange: changing one ServiceMonitor makes one write of generated
// objects (the config Secret) plus the ServiceMonitor's own status (its binding records the
// newly observed generation).
func TestOneWritePerMonitorChange(t *testing.T) {
	ns := newNamespace(t, nil)
	create(t, newPrometheus(ns, "one"), newServiceMonitor(ns, "a"), newServiceMonitor(ns, "b"))
	eventually(t, 20*time.Second, "config", func() error { return configContains(ns, "one", "serviceMonitor/"+ns+"/b/0") })
	eventually(t, 10*time.Second, "bindings", func() error { return binding(ns, "b", monitoringv1.ConditionTrue, "Accepted", "") })
	before := settle(t)
	byKind := writesByKind()

	sm := newServiceMonitor(ns, "a")
	update(t, sm, func() { sm.Spec.Endpoints[0].Interval = "17s" })
	eventually(t, 20*time.Second, "change in config", func() error { return configContains(ns, "one", "scrape_interval: 17s") })
	after := settle(t)
	now := writesByKind()
	if after-before != 2 || now["Secret/update"]-byKind["Secret/update"] != 1 || now["ServiceMonitor/apply-status"]-byKind["ServiceMonitor/apply-status"] != 1 {
		t.Errorf("one monitor change made %v writes; by kind before %v, after %v (want the config Secret and the monitor's status)", after-before, byKind, now)
	}
}

func writesByKind() map[string]float64 { return writeCounts() }

func ptrInt32(v int32) *int32 { return &v }

// TestAgentZeroWritesOnResync: as TestZeroWritesOnResync, for a sharded PrometheusAgent:
// an unrelated Secret, a label change on the agent and an unselected monitor make no write.
func TestAgentZeroWritesOnResync(t *testing.T) {
	ns := newNamespace(t, nil)
	create(t, newAgent(ns, "quiet", func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.Shards = ptrInt32(2) }),
		newServiceMonitor(ns, "a"), newServiceMonitor(ns, "b"))
	eventually(t, 20*time.Second, "agent config", func() error {
		c, err := agentConfig(ns, "quiet")
		if err == nil && !strings.Contains(c, "serviceMonitor/"+ns+"/b/0") {
			err = fmt.Errorf("config without b's job")
		}
		return err
	})
	eventually(t, 10*time.Second, "shard 1 and the status", func() error {
		if _, err := statefulSet(ns, "prom-agent-quiet-shard-1"); err != nil {
			return err
		}
		c, _, err := agentCondition(ns, "quiet")
		if err == nil && c.Status != monitoringv1.ConditionTrue {
			err = fmt.Errorf("condition %+v", c)
		}
		return err
	})
	before := settle(t)
	create(t, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "unrelated"}, StringData: map[string]string{"x": "y"}})
	a := &monitoringv1alpha1.PrometheusAgent{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "quiet"}}
	update(t, a, func() { a.Labels = map[string]string{"touched": "1"} })
	create(t, newServiceMonitor(ns, "ignored", func(s *monitoringv1.ServiceMonitor) { s.Labels = map[string]string{"team": "nobody"} }))
	if after := settle(t); after != before {
		t.Errorf("the operator made %v API writes with nothing to change", after-before)
	}
}
