package alertmanager

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// updateStatus computes the status from the live StatefulSet and the reconcile outcome
// and applies it (server-side apply, Lookout's field manager) only when it changed.
func (r *Reconciler) updateStatus(ctx context.Context, a *monitoringv1.Alertmanager, result error) error {
	var sts *appsv1.StatefulSet
	live := &appsv1.StatefulSet{}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: a.Namespace, Name: layout.AlertmanagerStatefulSetName(a.Name)}, live)
	switch {
	case err == nil && ownedBy(live, a):
		sts = live
	case err != nil && !apierrors.IsNotFound(err):
		return fmt.Errorf("reading the StatefulSet: %w", err)
	}
	now := metav1.NewTime(r.Clock.Now())
	status := workload.AlertmanagerStatus(a, sts, nil, now)
	status.Conditions = append(status.Conditions, outcome.ReconciledCondition(a.Status.Conditions, result,
		"the configuration, Secrets, Service and StatefulSet match the spec", now))
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = a.Generation
	}
	nn := types.NamespacedName{Namespace: a.Namespace, Name: a.Name}
	if r.written.Unchanged(nn, status, a.Status) {
		return nil
	}
	applied, err := resourcestatus.ApplyStatus(ctx, r.Client, monitoringv1.SchemeGroupVersion.String(), monitoringv1.AlertmanagersKind, a.Namespace, a.Name, status)
	r.Upstream.StatusUpdated(err)
	if err != nil || !applied {
		return err
	}
	r.written.Remember(nn, status)
	r.Applier.CountWrite(monitoringv1.AlertmanagersKind, "apply-status")
	return nil
}
