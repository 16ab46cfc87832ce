package amctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
)

// TestRepairPolicy: --repair-policy-for-statefulsets covers Alertmanager as it covers
// Prometheus and ThanosRuler.
func TestRepairPolicy(t *testing.T) {
	for _, policy := range instancetest.Policies {
		t.Run(policy, func(t *testing.T) {
			f := newFixture(t, Config{Config: instance.Config{RepairPolicy: policy}}, nil, alertmanager("main", func(a *monitoringv1.Alertmanager) { a.Spec.Replicas = ptr.To(int32(2)) }))
			if err := f.reconcile("main"); err != nil {
				t.Fatal(err)
			}
			sts := &appsv1.StatefulSet{}
			f.get(sts, "alertmanager-main")
			instancetest.StuckRollout(t, f.c, sts)
			if err := f.reconcile("main"); err != nil {
				t.Fatal(err)
			}
			instancetest.CheckRepaired(t, f.c, sts, policy)
		})
	}
}
