package prometheus

import (
	"context"
	"errors"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// updateStatus computes the status from the live StatefulSets and the reconcile outcome
// and writes it only when it changed.
func (r *Reconciler) updateStatus(ctx context.Context, p *monitoringv1.Prometheus, outcome error) error {
	var sets appsv1.StatefulSetList
	if err := r.Client.List(ctx, &sets, client.InNamespace(p.Namespace), client.UnsafeDisableDeepCopy); err != nil {
		return err
	}
	var mine []appsv1.StatefulSet
	for i := range sets.Items {
		if ownedBy(&sets.Items[i], p) {
			mine = append(mine, sets.Items[i])
		}
	}
	now := metav1.Now()
	status := workload.Status(p, mine, nil, now)
	status.Conditions = append(status.Conditions, reconciledCondition(p, outcome, now))
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = p.Generation
	}
	if equality.Semantic.DeepEqual(status, p.Status) {
		return nil
	}
	upd := p.DeepCopy()
	upd.Status = status
	if err := r.Client.Status().Update(ctx, upd); err != nil {
		return fmt.Errorf("updating status of Prometheus %s/%s: %w", p.Namespace, p.Name, err)
	}
	countWrite(monitoringv1.PrometheusesKind, "update-status")
	return nil
}

// reconciledCondition turns the outcome into the Reconciled condition, keeping the
// transition time when the status did not change.
func reconciledCondition(p *monitoringv1.Prometheus, outcome error, now metav1.Time) monitoringv1.Condition {
	c := monitoringv1.Condition{Type: monitoringv1.Reconciled, Status: monitoringv1.ConditionTrue, Reason: ReasonReconciled, LastTransitionTime: now}
	var re *reconcileError
	switch {
	case outcome == nil:
		c.Message = "the configuration, rule ConfigMaps and StatefulSets match the spec and the selected monitors"
	case errors.As(outcome, &re):
		c.Status, c.Reason, c.Message = monitoringv1.ConditionFalse, re.reason, truncate(re.Error(), 2048)
		if re.reason == ReasonPaused {
			c.Status = monitoringv1.ConditionTrue
		}
	default:
		c.Status, c.Reason, c.Message = monitoringv1.ConditionFalse, ReasonApplyFailed, truncate(outcome.Error(), 2048)
	}
	for _, old := range p.Status.Conditions {
		if old.Type == c.Type && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	return c
}
