package integration

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/operator"
)

func newAgent(ns, name string, mut ...func(*monitoringv1alpha1.PrometheusAgent)) *monitoringv1alpha1.PrometheusAgent {
	a := &monitoringv1alpha1.PrometheusAgent{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: monitoringv1alpha1.PrometheusAgentSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}},
			RemoteWrite:            []monitoringv1.RemoteWriteSpec{{URL: "http://receiver:9090/api/v1/write"}},
		}},
	}
	for _, m := range mut {
		m(a)
	}
	return a
}

func agentConfig(ns, name string) (string, error) {
	sec := &corev1.Secret{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prom-agent-" + name}, sec); err != nil {
		return "", err
	}
	r, err := gzip.NewReader(bytes.NewReader(sec.Data["prometheus.yaml.gz"]))
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(r)
	return string(b), err
}

func agentCondition(ns, name string) (*monitoringv1.Condition, *monitoringv1alpha1.PrometheusAgent, error) {
	a := &monitoringv1alpha1.PrometheusAgent{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, a); err != nil {
		return nil, nil, err
	}
	for i := range a.Status.Conditions {
		if a.Status.Conditions[i].Type == monitoringv1.Reconciled {
			return &a.Status.Conditions[i], a, nil
		}
	}
	return nil, a, fmt.Errorf("no Reconciled condition in %+v", a.Status)
}

// TestPrometheusAgent: in the real API server a PrometheusAgent and a ServiceMonitor become
// the agent's config Secret, StatefulSet and governing Service under upstream's names, owned
// by the agent; the monitor's binding names prometheusagents; shards come and go; an agent
// without remote write is refused with a status that says why.
func TestPrometheusAgent(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	a := newAgent(ns, "edge")
	create(t, a, newServiceMonitor(ns, "api"))

	eventually(t, 20*time.Second, "agent config with the ServiceMonitor's job", func() error {
		c, err := agentConfig(ns, "edge")
		if err != nil {
			return err
		}
		if !strings.Contains(c, "job_name: serviceMonitor/"+ns+"/api/0") || !strings.Contains(c, "remote_write:") {
			return fmt.Errorf("config:\n%s", c)
		}
		if strings.Contains(c, "rule_files") || strings.Contains(c, "alerting") {
			return fmt.Errorf("agent config with rules or alerting:\n%s", c)
		}
		return nil
	})
	eventually(t, 20*time.Second, "StatefulSet in agent mode", func() error {
		sts, err := statefulSet(ns, "prom-agent-edge")
		if err != nil {
			return err
		}
		if sts.Spec.ServiceName != "prometheus-agent-operated" {
			return fmt.Errorf("service name %q", sts.Spec.ServiceName)
		}
		if o := sts.OwnerReferences; len(o) != 1 || o[0].Kind != "PrometheusAgent" || o[0].UID != a.UID {
			return fmt.Errorf("owners %+v", o)
		}
		if args := strings.Join(sts.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(args, "--agent") {
			return fmt.Errorf("args %s", args)
		}
		return nil
	})
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prometheus-agent-operated"}, &corev1.Service{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "agent status and the monitor's binding", func() error {
		c, live, err := agentCondition(ns, "edge")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue || c.ObservedGeneration != live.Generation || live.Status.Shards != 1 {
			return fmt.Errorf("condition %+v, status %+v", c, live.Status)
		}
		sm := &monitoringv1.ServiceMonitor{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "api"}, sm); err != nil {
			return err
		}
		for _, b := range sm.Status.Bindings {
			if b.Resource == "prometheusagents" && b.Name == "edge" && len(b.Conditions) == 1 && b.Conditions[0].Status == monitoringv1.ConditionTrue {
				return nil
			}
		}
		return fmt.Errorf("no accepted binding of prometheusagents/edge: %+v", sm.Status.Bindings)
	})

	setAgentShards(t, ns, "edge", 2)
	eventually(t, 20*time.Second, "shard 1", func() error { _, err := statefulSet(ns, "prom-agent-edge-shard-1"); return err })
	setAgentShards(t, ns, "edge", 1)
	eventually(t, 20*time.Second, "shard 1 removed", func() error {
		if _, err := statefulSet(ns, "prom-agent-edge-shard-1"); err == nil {
			return fmt.Errorf("prom-agent-edge-shard-1 still there")
		}
		return nil
	})

	create(t, newAgent(ns, "nowhere", func(a *monitoringv1alpha1.PrometheusAgent) { a.Spec.RemoteWrite = nil }))
	eventually(t, 20*time.Second, "an agent without remote write, run with a note", func() error {
		c, _, err := agentCondition(ns, "nowhere")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue || c.Reason != "NoRemoteWrite" || !strings.Contains(c.Message, "spec.remoteWrite is empty") {
			return fmt.Errorf("condition %+v", c)
		}
		_, err = statefulSet(ns, "prom-agent-nowhere")
		return err
	})
}

func setAgentShards(t *testing.T, ns, name string, n int32) {
	t.Helper()
	a := &monitoringv1alpha1.PrometheusAgent{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}}
	update(t, a, func() { a.Spec.Shards = ptr.To(n) })
}

// TestPrometheusAgentDaemonSetMode: the API server refuses a DaemonSet-mode agent with a
// ServiceMonitor selector (the CRD's rule); without the feature gate the shared operator
// refuses the mode with a status; an operator with the gate writes a DaemonSet, no
// StatefulSet, and a config discovering only the node's pods.
func TestPrometheusAgentDaemonSetMode(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	dsMode := func(a *monitoringv1alpha1.PrometheusAgent) {
		a.Spec.Mode = ptr.To(monitoringv1alpha1.DaemonSetPrometheusAgentMode)
		a.Spec.ServiceMonitorSelector = nil
		a.Spec.PodMonitorSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"team": "a"}}
	}
	bad := newAgent(ns, "bad", dsMode, func(a *monitoringv1alpha1.PrometheusAgent) {
		a.Spec.ServiceMonitorSelector = &metav1.LabelSelector{}
	})
	if err := k8s.Create(ctx, bad); err == nil || !strings.Contains(err.Error(), "serviceMonitorSelector cannot be set when mode is DaemonSet") {
		t.Fatalf("creating a DaemonSet-mode agent with a ServiceMonitor selector: %v", err)
	}

	create(t, newAgent(ns, "gated", dsMode))
	eventually(t, 20*time.Second, "refusal without the feature gate", func() error {
		c, _, err := agentCondition(ns, "gated")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionFalse || !strings.Contains(c.Message, "PrometheusAgentDaemonSet feature gate") {
			return fmt.Errorf("condition %+v", c)
		}
		return nil
	})

	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Registry = reg
		o.FeatureGates = operator.DefaultFeatureGates()
		o.FeatureGates[operator.GatePrometheusAgentDaemonSet] = true
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	a := newAgent(ns, "nodes", dsMode, func(a *monitoringv1alpha1.PrometheusAgent) { a.Labels = map[string]string{dedicatedLabel: ns} })
	pm := &monitoringv1.PodMonitor{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "pods", Labels: map[string]string{"team": "a"}},
		Spec: monitoringv1.PodMonitorSpec{Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": "pods"}},
			PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr.To("web")}}},
	}
	create(t, a, pm)
	eventually(t, 20*time.Second, "DaemonSet and node-local config", func() error {
		ds := &appsv1.DaemonSet{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prom-agent-nodes"}, ds); err != nil {
			return err
		}
		if o := ds.OwnerReferences; len(o) != 1 || o[0].UID != a.UID {
			return fmt.Errorf("owners %+v", o)
		}
		c, err := agentConfig(ns, "nodes")
		if err != nil {
			return err
		}
		if !strings.Contains(c, "job_name: podMonitor/"+ns+"/pods/0") || !strings.Contains(c, "field: spec.nodeName=$(NODE_NAME)") {
			return fmt.Errorf("config:\n%s", c)
		}
		return nil
	})
	if _, err := statefulSet(ns, "prom-agent-nodes"); err == nil {
		t.Error("a StatefulSet for an agent in DaemonSet mode")
	}
	eventually(t, 20*time.Second, "status of the DaemonSet-mode agent", func() error {
		c, live, err := agentCondition(ns, "nodes")
		if err != nil {
			return err
		}
		if c.Status != monitoringv1.ConditionTrue || live.Status.Shards != 1 {
			return fmt.Errorf("condition %+v, status %+v", c, live.Status)
		}
		return nil
	})
}
