package amctrl

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"slices"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/confighash"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// TestReconcileConfigLoaded: with ReloaderReportConfig an Alertmanager with its own
// service account gets --report-pod on its reloader and a Role to patch its pods'
// status; ConfigLoaded is False naming the pods until each reports the sha256 of the
// generated configuration (what its reloader hashes, decompressed), then True, and
// nothing more is written once it holds. Without a service account it is Unknown.
func TestReconcileConfigLoaded(t *testing.T) {
	opts := workload.DefaultOptions()
	opts.ReloaderReportConfig = true
	f := newFixture(t, Config{Config: instance.Config{Workload: opts}}, nil,
		alertmanager("main", func(a *monitoringv1.Alertmanager) {
			a.Spec.ServiceAccountName = "am"
			a.Spec.Replicas = ptr.To[int32](2)
		}),
		alertmanager("nosa"))
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	sts := &appsv1.StatefulSet{}
	f.get(sts, "alertmanager-main")
	for _, c := range sts.Spec.Template.Spec.Containers {
		if c.Name == workload.ReloaderContainerName && !slices.Contains(c.Args, "--report-pod=mon/$(POD_NAME)") {
			t.Errorf("reloader args %q lack --report-pod", c.Args)
		}
	}
	role := &rbacv1.Role{}
	f.get(role, "alertmanager-main-config-reloader")
	if len(role.Rules) != 1 || role.Rules[0].Resources[0] != "pods/status" || !slices.Equal(role.Rules[0].ResourceNames, []string{"alertmanager-main-0", "alertmanager-main-1"}) {
		t.Fatalf("role rules %+v", role.Rules)
	}
	sec := &corev1.Secret{}
	f.get(sec, layout.Alertmanager("main").GeneratedSecret())
	zr, err := gzip.NewReader(bytes.NewReader(sec.Data[layout.AlertmanagerConfigCompressedKey]))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	hash := confighash.Sum(plain)

	want := "2 of 2 replicas do not run the latest configuration (sha256 " + hash[:12] + ") yet: " +
		"alertmanager-main-0 does not exist, alertmanager-main-1 does not exist"
	if c := f.condition("main", instance.ConditionConfigLoaded); c.Status != monitoringv1.ConditionFalse || c.Reason != instance.ReasonReplicasLagging || c.Message != want {
		t.Fatalf("condition %s %s: %s\nwant False %s: %s", c.Status, c.Reason, c.Message, instance.ReasonReplicasLagging, want)
	}
	for _, name := range []string{"alertmanager-main-0", "alertmanager-main-1"} {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, Labels: sts.Spec.Template.Labels}}
		pod.Status.Conditions = []corev1.PodCondition{{Type: layout.ConfigLoadedPodCondition, Status: corev1.ConditionTrue,
			Reason: layout.ConfigLoadedPodReason, Message: layout.ConfigLoadedMessage(hash)}}
		if err := f.c.Create(context.Background(), pod); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	want = "all 2 replicas run the latest configuration (sha256 " + hash[:12] + ")"
	if c := f.condition("main", instance.ConditionConfigLoaded); c.Status != monitoringv1.ConditionTrue || c.Reason != instance.ReasonAllReplicasLoaded || c.Message != want {
		t.Fatalf("condition %s %s: %s\nwant True %s: %s", c.Status, c.Reason, c.Message, instance.ReasonAllReplicasLoaded, want)
	}
	before := f.writes.Total()
	if err := f.reconcile("main"); err != nil {
		t.Fatal(err)
	}
	if after := f.writes.Total(); after != before {
		t.Fatalf("%v writes with nothing changed", after-before)
	}

	// Without its own service account: no report, no Role, Unknown.
	if err := f.reconcile("nosa"); err != nil {
		t.Fatal(err)
	}
	f.get(sts, "alertmanager-nosa")
	for _, c := range sts.Spec.Template.Spec.Containers {
		if slices.ContainsFunc(c.Args, func(a string) bool { return a == "--report-pod=mon/$(POD_NAME)" }) {
			t.Errorf("%s args %q have --report-pod without a service account", c.Name, c.Args)
		}
	}
	if c := f.condition("nosa", instance.ConditionConfigLoaded); c.Status != monitoringv1.ConditionUnknown || c.Reason != instance.ReasonReportingUnavailable {
		t.Errorf("condition without service account %s %s: %s", c.Status, c.Reason, c.Message)
	}
}
