package trctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// status computes the status from the live StatefulSet and the reconcile outcome,
// repairing a stuck rollout on the way (--repair-policy-for-statefulsets).
func (r *Reconciler) status(ctx context.Context, t *monitoringv1.ThanosRuler, _ *trState, result error) (monitoringv1.ThanosRulerStatus, error) {
	sts, err := r.OwnedStatefulSet(ctx, t, layout.ThanosRuler(t.Name).StatefulSet())
	if err != nil {
		return monitoringv1.ThanosRulerStatus{}, err
	}
	now := metav1.NewTime(r.Clock.Now())
	status := trplan.ThanosRulerStatus(t, sts, nil, now)
	status.Conditions = instance.WithReconciled(status.Conditions, t.Status.Conditions, result,
		"the rule ConfigMaps, Secrets, Service and StatefulSet match the spec and the selected PrometheusRules", t.Generation, now)
	return status, nil
}
