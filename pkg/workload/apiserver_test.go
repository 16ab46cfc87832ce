package workload_test

import (
	"context"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/workload"
	"github.com/lookout-operator/lookout/test/testenv"
)

// TestAPIServerAcceptsGeneratedObjects sends every golden StatefulSet, the Service and the
// reloader's Role and RoleBinding to a real kube-apiserver as a server-side dry-run create:
// the API server's own validation is the proof they are valid objects.
func TestAPIServerAcceptsGeneratedObjects(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	env, err := testenv.Start(ctx, testenv.Options{SkipCRDs: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	c := env.Client
	if err := c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "monitoring"}}); err != nil {
		t.Fatal(err)
	}

	objects := map[string]client.Object{}
	for _, bc := range workload.BuildCasesForTest() {
		sts, err := workload.StatefulSet(bc.Input, bc.Options, bc.Shard)
		if err != nil {
			t.Fatalf("%s: %v", bc.Name, err)
		}
		objects["statefulset "+bc.Name] = sts
	}
	for _, ac := range workload.AlertmanagerCasesForTest() {
		sts, err := workload.AlertmanagerStatefulSet(ac.Input, ac.Options)
		if err != nil {
			t.Fatalf("alertmanager %s: %v", ac.Name, err)
		}
		objects["alertmanager statefulset "+ac.Name] = sts
	}
	for _, tc := range workload.ThanosRulerCasesForTest() {
		sts, err := workload.ThanosRulerStatefulSet(tc.Input, tc.Options)
		if err != nil {
			t.Fatalf("thanosruler %s: %v", tc.Name, err)
		}
		objects["thanosruler statefulset "+tc.Name] = sts
	}
	objects["thanosruler service"] = workload.ThanosRulerGoverningService(workload.ThanosRulerCasesForTest()[0].Input.ThanosRuler)
	objects["alertmanager service"] = workload.AlertmanagerGoverningService(workload.AlertmanagerCasesForTest()[0].Input.Alertmanager)
	p := workload.BuildCasesForTest()[0].Input.Prometheus
	objects["service"] = workload.GoverningService(p)
	withThanos := p.DeepCopy()
	withThanos.Prometheus.Spec.Thanos = &monitoringv1.ThanosSpec{}
	objects["service with thanos"] = workload.GoverningService(withThanos)
	role, err := workload.ReloaderRole(workload.Input{Prometheus: p, RuleConfigMaps: 9})
	if err != nil {
		t.Fatal(err)
	}
	objects["role"] = role
	objects["rolebinding"] = workload.ReloaderRoleBinding(p)
	amWithSA := workload.AlertmanagerCasesForTest()[0].Input.Alertmanager.DeepCopy()
	amWithSA.Spec.ServiceAccountName = "alertmanager-main"
	objects["alertmanager role"] = workload.AlertmanagerReloaderRole(amWithSA)
	objects["alertmanager rolebinding"] = workload.AlertmanagerReloaderRoleBinding(amWithSA)

	for name, obj := range objects {
		if err := c.Create(ctx, obj, client.DryRunAll); err != nil {
			t.Errorf("%s: the API server rejects it: %v", name, err)
		}
	}

	// Negative control: the dry run does validate. A StatefulSet with a volume listed
	// twice, and one whose claim template has no size, are refused.
	bc := workload.BuildCasesForTest()[0]
	sts, err := workload.StatefulSet(bc.Input, bc.Options, 0)
	if err != nil {
		t.Fatal(err)
	}
	dup := sts.DeepCopy()
	dup.Spec.Template.Spec.Volumes = append(dup.Spec.Template.Spec.Volumes, dup.Spec.Template.Spec.Volumes[0])
	if err := c.Create(ctx, dup, client.DryRunAll); err == nil {
		t.Error("the API server accepted a duplicate volume: the dry run proves nothing")
	}
	noSize := sts.DeepCopy()
	noSize.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}
	if err := c.Create(ctx, noSize, client.DryRunAll); err == nil {
		t.Error("the API server accepted a claim template without size")
	}
}
