package alertmanager

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// status computes the status from the live StatefulSet and the reconcile outcome,
// repairing a stuck rollout on the way (--repair-policy-for-statefulsets).
func (r *Reconciler) status(ctx context.Context, a *monitoringv1.Alertmanager, result error) (monitoringv1.AlertmanagerStatus, error) {
	sts, err := r.OwnedStatefulSet(ctx, a, layout.Alertmanager(a.Name).StatefulSet())
	if err != nil {
		return monitoringv1.AlertmanagerStatus{}, err
	}
	now := metav1.NewTime(r.Clock.Now())
	status := workload.AlertmanagerStatus(a, sts, nil, now)
	status.Conditions = instance.WithReconciled(status.Conditions, a.Status.Conditions, result,
		"the configuration, Secrets, Service and StatefulSet match the spec", a.Generation, now)
	return status, nil
}
