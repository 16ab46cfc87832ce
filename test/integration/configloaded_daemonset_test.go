package integration

import (
	"fmt"
	"slices"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/reloader/podreport"
)

// TestConfigLoadedDaemonSetAgent: a DaemonSet-mode agent's pods cannot be named in
// advance, so its reloader Role follows the pods that exist: none before the first pod,
// each pod once created, gone once deleted. Reports written as the agent's own service
// account (impersonated, through the real RBAC authorizer) make ConfigLoaded True; a pod
// the Role does not name is refused.
func TestConfigLoadedDaemonSetAgent(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.FeatureGates = operator.DefaultFeatureGates()
		o.FeatureGates[operator.GatePrometheusAgentDaemonSet] = true
		o.Workload.ReloaderReportConfig = true
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	create(t, newAgent(ns, "nodes", func(a *monitoringv1alpha1.PrometheusAgent) {
		a.Labels = map[string]string{dedicatedLabel: ns}
		a.Spec.Mode = ptr.To(monitoringv1alpha1.DaemonSetPrometheusAgentMode)
		a.Spec.ServiceMonitorSelector = nil
		a.Spec.PodMonitorSelector = &metav1.LabelSelector{}
		a.Spec.ServiceAccountName = "agent"
	}))
	roleNames := func(want []string) func() error {
		return func() error {
			role := &rbacv1.Role{}
			if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prom-agent-nodes-config-reloader"}, role); err != nil {
				return err
			}
			var got []string
			for _, r := range role.Rules {
				if slices.Contains(r.Resources, "pods/status") {
					if len(r.ResourceNames) == 0 {
						return fmt.Errorf("patch on the status of every pod: %+v", r)
					}
					got = append(got, r.ResourceNames...)
				}
			}
			if !slices.Equal(got, want) {
				return fmt.Errorf("the Role lets %v report, want %v", got, want)
			}
			return nil
		}
	}
	eventually(t, 20*time.Second, "a Role naming no pod", roleNames(nil))
	expectAgentLoaded(t, ns, "nodes", monitoringv1.ConditionUnknown, "NoReplicas", "the DaemonSet has no pods (no node matches its scheduling constraints yet)")

	ds := &appsv1.DaemonSet{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: "prom-agent-nodes"}, ds); err != nil {
		t.Fatal(err)
	}
	hash := configHash(t, ns, "prom-agent-nodes")
	short := hash[:12]
	pods := []string{"prom-agent-nodes-b9vzd", "prom-agent-nodes-x7k2q"}
	for _, name := range append(pods, "intruder") {
		l := ds.Spec.Template.Labels
		if name == "intruder" {
			l = map[string]string{"app": "other"}
		}
		create(t, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: l},
			Spec:       corev1.PodSpec{ServiceAccountName: "agent", Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus"}}},
		})
	}
	eventually(t, 20*time.Second, "a Role naming both pods", roleNames(pods))
	expectAgentLoaded(t, ns, "nodes", monitoringv1.ConditionFalse, "ReplicasLagging",
		"2 of 2 replicas do not run the latest configuration (sha256 "+short+") yet: prom-agent-nodes-b9vzd has not reported a configuration, prom-agent-nodes-x7k2q has not reported a configuration")

	// The reports, as the agent's service account writes them.
	asAgent := rest.CopyConfig(env.Config)
	asAgent.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + ns + ":agent"}
	report := func(pod string) error {
		w, err := podreport.NewPodWriter(asAgent, ns, pod, "test")
		if err != nil {
			t.Fatal(err)
		}
		return w.WriteConfigLoaded(ctx, hash)
	}
	if err := report("intruder"); err == nil {
		t.Error("the agent's service account patched the status of a pod that is not the agent's")
	}
	for _, pod := range pods {
		if err := report(pod); err != nil {
			t.Fatalf("report of %s: %v", pod, err)
		}
	}
	expectAgentLoaded(t, ns, "nodes", monitoringv1.ConditionTrue, "AllReplicasLoaded", "all 2 replicas run the latest configuration (sha256 "+short+")")

	// A node leaves: its pod goes, and so does its name in the Role.
	if err := k8s.Delete(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: pods[0]}}); err != nil {
		t.Fatal(err)
	}
	eventually(t, 20*time.Second, "a Role naming the remaining pod", roleNames(pods[1:]))
	expectAgentLoaded(t, ns, "nodes", monitoringv1.ConditionTrue, "AllReplicasLoaded", "the 1 replica runs the latest configuration (sha256 "+short+")")
}

// expectAgentLoaded waits for the ConfigLoaded condition of the PrometheusAgent ns/name.
func expectAgentLoaded(t *testing.T, ns, name string, status monitoringv1.ConditionStatus, reason, message string) {
	t.Helper()
	eventually(t, 20*time.Second, fmt.Sprintf("ConfigLoaded=%s %s: %s", status, reason, message), func() error {
		a := &monitoringv1alpha1.PrometheusAgent{}
		if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, a); err != nil {
			return err
		}
		for _, c := range a.Status.Conditions {
			if c.Type == "ConfigLoaded" {
				if c.Status != status || c.Reason != reason || c.Message != message {
					return fmt.Errorf("ConfigLoaded=%s %s: %s", c.Status, c.Reason, c.Message)
				}
				return nil
			}
		}
		return fmt.Errorf("no ConfigLoaded condition in %+v", a.Status.Conditions)
	})
}
