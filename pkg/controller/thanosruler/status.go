package thanosruler

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/generated"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// updateStatus computes the status from the live StatefulSet and the reconcile outcome
// and applies it (server-side apply, Lookout's field manager) only when it changed.
func (r *Reconciler) updateStatus(ctx context.Context, t *monitoringv1.ThanosRuler, result error) error {
	var sts *appsv1.StatefulSet
	live := &appsv1.StatefulSet{}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: t.Namespace, Name: layout.ThanosRuler(t.Name).StatefulSet()}, live)
	switch {
	case err == nil && generated.OwnedBy(live, t.UID):
		sts = live
	case err != nil && !apierrors.IsNotFound(err):
		return fmt.Errorf("reading the StatefulSet: %w", err)
	}
	if sts != nil {
		generated.Repairer{Policy: r.cfg.RepairPolicy, Client: r.Client, APIReader: r.APIReader, Applier: r.Applier, Recorder: r.Recorder}.
			RepairStuck(ctx, []appsv1.StatefulSet{*sts})
	}
	now := metav1.NewTime(r.Clock.Now())
	status := workload.ThanosRulerStatus(t, sts, nil, now)
	status.Conditions = append(status.Conditions, outcome.ReconciledCondition(t.Status.Conditions, result,
		"the rule ConfigMaps, Secrets, Service and StatefulSet match the spec and the selected PrometheusRules", now))
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = t.Generation
	}
	nn := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	if r.written.Unchanged(nn, status, t.Status) {
		return nil
	}
	applied, err := resourcestatus.ApplyStatus(ctx, r.Client, monitoringv1.SchemeGroupVersion.String(), monitoringv1.ThanosRulerKind, t.Namespace, t.Name, status)
	r.Upstream.StatusUpdated(err)
	if err != nil || !applied {
		return err
	}
	r.written.Remember(nn, status)
	r.Applier.CountWrite(monitoringv1.ThanosRulerKind, "apply-status")
	return nil
}
