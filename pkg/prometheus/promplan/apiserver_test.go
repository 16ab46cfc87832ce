package promplan_test

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/test/workloadtest"
)

// TestAPIServerAcceptsGeneratedObjects sends every golden StatefulSet, the Service and the
// reloader's Role and RoleBinding to a real kube-apiserver as a server-side dry-run create:
// the API server's own validation is the proof they are valid objects.
func TestAPIServerAcceptsGeneratedObjects(t *testing.T) {
	ctx, c := workloadtest.APIServer(t)

	objects := map[string]client.Object{}
	for _, bc := range promplan.BuildCasesForTest() {
		sts, err := promplan.StatefulSet(bc.Input, bc.Options, bc.Shard)
		if err != nil {
			t.Fatalf("%s: %v", bc.Name, err)
		}
		objects["statefulset "+bc.Name] = sts
	}
	p := promplan.BuildCasesForTest()[0].Input.Prometheus
	objects["service"] = promplan.GoverningService(p)
	withThanos := p.DeepCopy()
	withThanos.Prometheus.Spec.Thanos = &monitoringv1.ThanosSpec{}
	objects["service with thanos"] = promplan.GoverningService(withThanos)
	role, err := promplan.ReloaderRole(promplan.Input{Prometheus: p, RuleConfigMaps: 9})
	if err != nil {
		t.Fatal(err)
	}
	objects["role"] = role
	objects["rolebinding"] = promplan.ReloaderRoleBinding(p)
	workloadtest.DryRunCreate(ctx, t, c, objects)

	// Negative control: the dry run does validate. A StatefulSet with a volume listed
	// twice, and one whose claim template has no size, are refused.
	bc := promplan.BuildCasesForTest()[0]
	sts, err := promplan.StatefulSet(bc.Input, bc.Options, 0)
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
