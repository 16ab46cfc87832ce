package trctrl

import (
	"context"
	"fmt"
	"slices"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// rulesHash is what the reloader of f's ThanosRuler reports once the ruler loaded the
// rule ConfigMaps as they are: the hash of their data, in index order.
func (f *fixture) rulesHash() string {
	f.t.Helper()
	var data []map[string]string
	for n := 0; ; n++ {
		cm := &corev1.ConfigMap{}
		if !f.exists(cm, "mon", layout.ThanosRuler("tr").RuleConfigMap(n)) {
			return dirhash.OfData(data...)
		}
		data = append(data, cm.Data)
	}
}

// TestReconcileConfigLoaded: with ReloaderReportConfig a ThanosRuler with its own service
// account gets --report-pod on its reloader and a Role to patch its pods' status;
// ConfigLoaded is False naming the pods until each reports the hash of the rule
// ConfigMaps, then True, nothing more is written once it holds, and a rule change makes
// it False again until the pods report the new rules. Without a service account it is
// Unknown.
func TestReconcileConfigLoaded(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderReportConfig = true
	f := newFixture(t, Config{Config: instance.Config{Workload: opts}}, thanosRuler(func(t *monitoringv1.ThanosRuler) {
		t.Spec.ServiceAccountName = "ruler"
		t.Spec.Replicas = ptr.To[int32](2)
	}), rule("app", "r", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "mon", "thanos-ruler-tr")
	for _, c := range sts.Spec.Template.Spec.Containers {
		if c.Name == workload.ReloaderContainerName && !slices.Contains(c.Args, "--report-pod=mon/$(POD_NAME)") {
			t.Errorf("reloader args %q lack --report-pod", c.Args)
		}
	}
	role := &rbacv1.Role{}
	f.get(role, "mon", "thanos-ruler-tr-config-reloader")
	if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, []string{"thanos-ruler-tr-0", "thanos-ruler-tr-1"}) {
		t.Fatalf("role rules %+v", role.Rules)
	}
	binding := &rbacv1.RoleBinding{}
	f.get(binding, "mon", "thanos-ruler-tr-config-reloader")
	if len(binding.Subjects) != 1 || binding.Subjects[0].Name != "ruler" {
		t.Fatalf("role binding subjects %+v", binding.Subjects)
	}
	hash := f.rulesHash()
	want := "2 of 2 replicas do not run the latest configuration (sha256 " + hash[:12] + ") yet: " +
		"thanos-ruler-tr-0 does not exist, thanos-ruler-tr-1 does not exist"
	f.wantLoaded(monitoringv1.ConditionFalse, instance.ReasonReplicasLagging, want)

	pods := make([]*corev1.Pod, 2)
	for i := range pods {
		pods[i] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: fmt.Sprintf("thanos-ruler-tr-%d", i), Labels: sts.Spec.Template.Labels}}
		report(pods[i], hash)
		if err := f.c.Create(context.Background(), pods[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	f.wantLoaded(monitoringv1.ConditionTrue, instance.ReasonAllReplicasLoaded, "all 2 replicas run the latest configuration (sha256 "+hash[:12]+")")
	before := f.writes.Total()
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	if after := f.writes.Total(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}

	// A rule change: False until every pod reports the new rules.
	r := &monitoringv1.PrometheusRule{}
	f.get(r, "app", "r")
	r.Spec.Groups[0].Rules[0].Expr = intstr.FromString("up == 2")
	r.Generation++
	if err := f.c.Update(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	old, hash := hash, f.rulesHash()
	if hash == old {
		t.Fatal("the rule change left the rules hash as it was")
	}
	f.wantLoaded(monitoringv1.ConditionFalse, instance.ReasonReplicasLagging, "2 of 2 replicas do not run the latest configuration (sha256 "+hash[:12]+") yet: "+
		"thanos-ruler-tr-0 runs sha256 "+old[:12]+", thanos-ruler-tr-1 runs sha256 "+old[:12])
	for _, pod := range pods {
		f.get(pod, "mon", pod.Name)
		report(pod, hash)
		if err := f.c.Status().Update(context.Background(), pod); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	f.wantLoaded(monitoringv1.ConditionTrue, instance.ReasonAllReplicasLoaded, "all 2 replicas run the latest configuration (sha256 "+hash[:12]+")")
}

// TestConfigLoadedWithoutServiceAccount: no report, no Role, Unknown.
func TestConfigLoadedWithoutServiceAccount(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderReportConfig = true
	f := newFixture(t, Config{Config: instance.Config{Workload: opts}}, thanosRuler(), rule("app", "r", "up == 0"))
	if err := f.reconcile(); err != nil {
		t.Fatal(err)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "mon", "thanos-ruler-tr")
	for _, c := range sts.Spec.Template.Spec.Containers {
		if slices.Contains(c.Args, "--report-pod=mon/$(POD_NAME)") {
			t.Errorf("%s args %q have --report-pod without a service account", c.Name, c.Args)
		}
	}
	if f.exists(&rbacv1.Role{}, "mon", "thanos-ruler-tr-config-reloader") {
		t.Error("a reloader Role without a service account")
	}
	f.wantLoaded(monitoringv1.ConditionUnknown, instance.ReasonReportingUnavailable, instance.NoServiceAccountMessage)
}

// report sets the condition pod's reloader writes once it loaded hash.
func report(pod *corev1.Pod, hash string) {
	pod.Status.Conditions = []corev1.PodCondition{{Type: layout.ConfigLoadedPodCondition, Status: corev1.ConditionTrue,
		Reason: layout.ConfigLoadedPodReason, Message: layout.ConfigLoadedMessage(hash)}}
}

func (f *fixture) wantLoaded(status monitoringv1.ConditionStatus, reason, message string) {
	f.t.Helper()
	if c := f.condition(instance.ConditionConfigLoaded); c.Status != status || c.Reason != reason || c.Message != message {
		f.t.Fatalf("ConfigLoaded %s %s: %s\nwant %s %s: %s", c.Status, c.Reason, c.Message, status, reason, message)
	}
}
