package prometheus

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// updateStatus computes the status from the live StatefulSets and the reconcile outcome
// and applies it (server-side apply, Lookout's field manager) only when it changed.
func (r *Reconciler) updateStatus(ctx context.Context, p *monitoringv1.Prometheus, outcome error) error {
	var sets appsv1.StatefulSetList
	if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return fmt.Errorf("listing StatefulSets: %w", err)
	}
	var mine []appsv1.StatefulSet
	for i := range sets.Items {
		if ownedBy(&sets.Items[i], p) {
			mine = append(mine, sets.Items[i])
		}
	}
	r.repairStuck(ctx, p, mine)
	now := metav1.NewTime(r.Clock.Now())
	status := workload.Status(p, mine, nil, now)
	status.Conditions = append(status.Conditions, reconciledCondition(p, outcome, now))
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = p.Generation
	}
	if equality.Semantic.DeepEqual(status, p.Status) {
		return nil
	}
	applied, err := resourcestatus.ApplyStatus(ctx, r.Client, monitoringv1.SchemeGroupVersion.String(), monitoringv1.PrometheusesKind, p.Namespace, p.Name, status)
	r.Upstream.StatusUpdated(err)
	if err != nil || !applied {
		return err
	}
	r.Applier.CountWrite(monitoringv1.PrometheusesKind, "apply-status")
	return nil
}

// reconciledCondition turns the outcome into the Reconciled condition, keeping the
// transition time while the status does not change.
func reconciledCondition(p *monitoringv1.Prometheus, result error, now metav1.Time) monitoringv1.Condition {
	return outcome.ReconciledCondition(p.Status.Conditions, result, "the configuration, rule ConfigMaps and StatefulSets match the spec and the selected monitors", now)
}
