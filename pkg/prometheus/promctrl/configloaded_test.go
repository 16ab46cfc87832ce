package promctrl

import (
	"context"
	"fmt"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

const (
	hashNew = "abcdef1234567890abcdef1234567890abcdef1234567890abcdef1234567890"
	hashOld = "0123456789ab0123456789ab0123456789ab0123456789ab0123456789ab0123"
)

func loadedPod(name, hash string) corev1.Pod {
	p := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
	if hash != "" {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{
			Type: layout.ConfigLoadedPodCondition, Status: corev1.ConditionTrue, Reason: layout.ConfigLoadedPodReason, Message: layout.ConfigLoadedMessage(hash)})
	}
	return p
}

func loadedProm(replicas, shards int32, mutate ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "main", Namespace: "ns"}}
	p.Spec.Replicas, p.Spec.Shards = ptr.To(replicas), ptr.To(shards)
	p.Spec.ServiceAccountName = "prometheus"
	for _, m := range mutate {
		m(p)
	}
	return p
}

func TestConfigLoadedCondition(t *testing.T) {
	many := make([]corev1.Pod, 0, 12)
	for i := range 12 {
		many = append(many, loadedPod(fmt.Sprintf("prometheus-main-%d", i), hashOld))
	}
	for _, c := range []struct {
		name    string
		in      loadedInput
		status  monitoringv1.ConditionStatus
		reason  string
		message string
	}{
		{
			name:   "all replicas loaded",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(3, 1)), Reports: true, Hash: hashNew, Pods: []corev1.Pod{loadedPod("prometheus-main-0", hashNew), loadedPod("prometheus-main-1", hashNew), loadedPod("prometheus-main-2", hashNew)}},
			status: monitoringv1.ConditionTrue, reason: instance.ReasonAllReplicasLoaded,
			message: "all 3 replicas run the latest configuration (sha256 abcdef123456)",
		},
		{
			name:   "one replica",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(1, 1)), Reports: true, Hash: hashNew, Pods: []corev1.Pod{loadedPod("prometheus-main-0", hashNew)}},
			status: monitoringv1.ConditionTrue, reason: instance.ReasonAllReplicasLoaded,
			message: "the 1 replica runs the latest configuration (sha256 abcdef123456)",
		},
		{
			name: "lagging replicas of two shards, a pod missing, one not reported",
			in: loadedInput{Prometheus: promserver.Of(loadedProm(2, 2)), Reports: true, Hash: hashNew, Pods: []corev1.Pod{
				loadedPod("prometheus-main-0", hashNew), loadedPod("prometheus-main-1", hashOld),
				loadedPod("prometheus-main-shard-1-0", ""),
				loadedPod("prometheus-other-0", hashOld), // not one of its pods
			}},
			status: monitoringv1.ConditionFalse, reason: instance.ReasonReplicasLagging,
			message: "3 of 4 replicas do not run the latest configuration (sha256 abcdef123456) yet: " +
				"prometheus-main-1 (shard 0) runs sha256 0123456789ab, prometheus-main-shard-1-0 (shard 1) has not reported a configuration, " +
				"prometheus-main-shard-1-1 (shard 1) does not exist",
		},
		{
			name:   "more than ten lagging",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(12, 1)), Reports: true, Hash: hashNew, Pods: many},
			status: monitoringv1.ConditionFalse, reason: instance.ReasonReplicasLagging,
			message: "12 of 12 replicas do not run the latest configuration (sha256 abcdef123456) yet: " +
				"prometheus-main-0 (shard 0) runs sha256 0123456789ab, prometheus-main-1 (shard 0) runs sha256 0123456789ab, " +
				"prometheus-main-2 (shard 0) runs sha256 0123456789ab, prometheus-main-3 (shard 0) runs sha256 0123456789ab, " +
				"prometheus-main-4 (shard 0) runs sha256 0123456789ab, prometheus-main-5 (shard 0) runs sha256 0123456789ab, " +
				"prometheus-main-6 (shard 0) runs sha256 0123456789ab, prometheus-main-7 (shard 0) runs sha256 0123456789ab, " +
				"prometheus-main-8 (shard 0) runs sha256 0123456789ab, prometheus-main-9 (shard 0) runs sha256 0123456789ab, and 2 more",
		},
		{
			name:   "no service account",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(1, 1, func(p *monitoringv1.Prometheus) { p.Spec.ServiceAccountName = "" })), Hash: hashNew},
			status: monitoringv1.ConditionUnknown, reason: instance.ReasonReportingUnavailable,
			message: "the config-reloader reports the configuration it loaded only when spec.serviceAccountName is set: that service account is granted patch on the status of its own pods",
		},
		{
			name: "DaemonSet mode: the pods that exist",
			in: loadedInput{Prometheus: daemonSetAgentOf(loadedProm(1, 1)), Reports: true, Hash: hashNew, Pods: []corev1.Pod{
				loadedPod("prom-agent-main-x7k2q", hashNew), loadedPod("prom-agent-main-b9vzd", hashNew)}},
			status: monitoringv1.ConditionTrue, reason: instance.ReasonAllReplicasLoaded,
			message: "all 2 replicas run the latest configuration (sha256 abcdef123456)",
		},
		{
			name: "DaemonSet mode: a node's pod lagging, named without a shard",
			in: loadedInput{Prometheus: daemonSetAgentOf(loadedProm(1, 1)), Reports: true, Hash: hashNew, Pods: []corev1.Pod{
				loadedPod("prom-agent-main-x7k2q", hashNew), loadedPod("prom-agent-main-b9vzd", hashOld), loadedPod("prom-agent-main-c4mnp", "")}},
			status: monitoringv1.ConditionFalse, reason: instance.ReasonReplicasLagging,
			message: "2 of 3 replicas do not run the latest configuration (sha256 abcdef123456) yet: " +
				"prom-agent-main-b9vzd runs sha256 0123456789ab, prom-agent-main-c4mnp has not reported a configuration",
		},
		{
			name:   "DaemonSet mode: no pods",
			in:     loadedInput{Prometheus: daemonSetAgentOf(loadedProm(1, 1)), Reports: true, Hash: hashNew},
			status: monitoringv1.ConditionUnknown, reason: instance.ReasonNoReplicas,
			message: "the DaemonSet has no pods (no node matches its scheduling constraints yet)",
		},
		{
			name:   "DaemonSet mode without its own service account",
			in:     loadedInput{Prometheus: daemonSetAgentOf(loadedProm(1, 1, func(p *monitoringv1.Prometheus) { p.Spec.ServiceAccountName = "" })), Hash: hashNew},
			status: monitoringv1.ConditionUnknown, reason: instance.ReasonReportingUnavailable,
			message: instance.NoServiceAccountMessage,
		},
		{
			name:   "unmanaged configuration",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(1, 1)), Reports: true, Hash: instance.UnmanagedHash},
			status: monitoringv1.ConditionUnknown, reason: ReasonConfigurationUnmanaged,
			message: "the configuration Secret is not generated by the operator, so there is no latest configuration to compare with",
		},
		{
			name:   "no configuration yet",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(1, 1)), Reports: true},
			status: monitoringv1.ConditionUnknown, reason: instance.ReasonConfigurationNotGenerated,
			message: "the operator has not written a configuration since it started",
		},
		{
			name:   "no replicas",
			in:     loadedInput{Prometheus: promserver.Of(loadedProm(0, 1)), Reports: true, Hash: hashNew},
			status: monitoringv1.ConditionUnknown, reason: instance.ReasonNoReplicas,
			message: "spec.replicas is 0: no pod runs a configuration",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := configLoadedCondition(c.in)
			if got.Type != instance.ConditionConfigLoaded || got.Status != c.status || got.Reason != c.reason || got.Message != c.message {
				t.Errorf("got %s=%s %s:\n  %s\nwant %s=%s %s:\n  %s", got.Type, got.Status, got.Reason, got.Message, instance.ConditionConfigLoaded, c.status, c.reason, c.message)
			}
		})
	}
}

// TestReconcileConfigLoaded: with ReloaderReportConfig the reconcile sets ConfigLoaded
// from the pods' reports, grants the reloader patch on its pods' status, and writes
// nothing more once the condition holds.
func TestReconcileConfigLoaded(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderReportConfig = true
	f := newFixture(t, Config{Config: instance.Config{Workload: opts}}, prom("p", func(p *monitoringv1.Prometheus) {
		p.Spec.ServiceAccountName = "prom"
		p.Spec.Replicas = ptr.To[int32](2)
	}))
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	sec := &corev1.Secret{}
	f.get(sec, "mon", layout.Prometheus("p").ConfigSecret())
	hash := sec.Annotations[layout.InputHashAnnotation]
	loaded := func() monitoringv1.Condition {
		t.Helper()
		p := &monitoringv1.Prometheus{}
		f.get(p, "mon", "p")
		for _, c := range p.Status.Conditions {
			if c.Type == instance.ConditionConfigLoaded {
				return c
			}
		}
		t.Fatalf("no ConfigLoaded condition: %+v", p.Status.Conditions)
		return monitoringv1.Condition{}
	}
	want := "2 of 2 replicas do not run the latest configuration (sha256 " + hash[:12] + ") yet: " +
		"prometheus-p-0 (shard 0) does not exist, prometheus-p-1 (shard 0) does not exist"
	if c := loaded(); c.Status != monitoringv1.ConditionFalse || c.Reason != instance.ReasonReplicasLagging || c.Message != want {
		t.Fatalf("condition %s %s: %s\nwant False %s: %s", c.Status, c.Reason, c.Message, instance.ReasonReplicasLagging, want)
	}
	role := &rbacv1.Role{}
	f.get(role, "mon", "prometheus-p-config-reloader")
	if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || len(role.Rules[0].ResourceNames) != 2 {
		t.Fatalf("role rules %+v", role.Rules)
	}

	for _, name := range []string{"prometheus-p-0", "prometheus-p-1"} {
		pod := loadedPod(name, hash)
		pod.Namespace = "mon"
		pod.Labels = map[string]string{layout.PrometheusNameLabel: "p", layout.NameLabel: promplan.PrometheusNameValue}
		if err := f.c.Create(context.Background(), &pod); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	want = "all 2 replicas run the latest configuration (sha256 " + hash[:12] + ")"
	if c := loaded(); c.Status != monitoringv1.ConditionTrue || c.Reason != instance.ReasonAllReplicasLoaded || c.Message != want {
		t.Fatalf("condition %s %s: %s\nwant True %s: %s", c.Status, c.Reason, c.Message, instance.ReasonAllReplicasLoaded, want)
	}
	before := f.totalWrites()
	if err := f.reconcile("mon", "p"); err != nil {
		t.Fatal(err)
	}
	if after := f.totalWrites(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}
}

// daemonSetAgentOf is a DaemonSet-mode PrometheusAgent with p's metadata and common fields.
func daemonSetAgentOf(p *monitoringv1.Prometheus) *promserver.Server {
	return promserver.Of(&monitoringv1alpha1.PrometheusAgent{ObjectMeta: p.ObjectMeta, Spec: monitoringv1alpha1.PrometheusAgentSpec{
		CommonPrometheusFields: p.Spec.CommonPrometheusFields,
		Mode:                   ptr.To(monitoringv1alpha1.DaemonSetPrometheusAgentMode),
	}})
}
