package promctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/instance/instancetest"
)

func TestRepairPolicy(t *testing.T) {
	for _, policy := range instancetest.Policies {
		t.Run(policy, func(t *testing.T) {
			f := newFixture(t, Config{Config: instance.Config{RepairPolicy: policy}}, prom("p", func(p *monitoringv1.Prometheus) { p.Spec.Replicas = ptr.To(int32(2)) }))
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			sts, _ := f.statefulSet("prometheus-p")
			instancetest.StuckRollout(t, f.c, sts)
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			instancetest.CheckRepaired(t, f.c, sts, policy)
		})
	}
}
