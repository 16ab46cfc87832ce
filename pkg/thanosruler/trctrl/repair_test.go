package trctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
)

// --repair-policy-for-statefulsets applies to the ThanosRuler StatefulSet: the pod stuck
// not ready on a revision that is neither current nor the update one goes.
func TestRepairPolicy(t *testing.T) {
	for _, policy := range instancetest.Policies {
		t.Run(policy, func(t *testing.T) {
			f := newFixture(t, Config{Config: instance.Config{RepairPolicy: policy}}, thanosRuler(func(t *monitoringv1.ThanosRuler) { t.Spec.Replicas = ptr.To(int32(2)) }))
			if err := f.reconcile(); err != nil {
				t.Fatal(err)
			}
			sts := &appsv1.StatefulSet{}
			f.get(sts, "mon", "thanos-ruler-tr")
			instancetest.StuckRollout(t, f.c, sts)
			if err := f.reconcile(); err != nil {
				t.Fatal(err)
			}
			instancetest.CheckRepaired(t, f.c, sts, policy)
		})
	}
}
