package prometheus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

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
	now := metav1.NewTime(r.Clock.Now())
	status := workload.Status(p, mine, nil, now)
	status.Conditions = append(status.Conditions, reconciledCondition(p, outcome, now))
	for i := range status.Conditions {
		status.Conditions[i].ObservedGeneration = p.Generation
	}
	if equality.Semantic.DeepEqual(status, p.Status) {
		return nil
	}
	b, err := json.Marshal(status)
	if err != nil {
		return err
	}
	var st map[string]any
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": monitoringv1.SchemeGroupVersion.String(),
		"kind":       monitoringv1.PrometheusesKind,
		"metadata":   map[string]any{"name": p.Name, "namespace": p.Namespace},
		"status":     st,
	}}
	err = r.Client.Status().Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(resourcestatus.FieldOwner), client.ForceOwnership)
	r.Upstream.StatusUpdated(client.IgnoreNotFound(err))
	if apierrors.IsNotFound(err) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return fmt.Errorf("applying status of Prometheus %s/%s: %w", p.Namespace, p.Name, err)
	}
	r.Applier.CountWrite(monitoringv1.PrometheusesKind, "apply-status")
	return nil
}

// reconciledCondition turns the outcome into the Reconciled condition, keeping the
// transition time while the status does not change.
func reconciledCondition(p *monitoringv1.Prometheus, outcome error, now metav1.Time) monitoringv1.Condition {
	c := monitoringv1.Condition{Type: monitoringv1.Reconciled, Status: monitoringv1.ConditionTrue, Reason: ReasonReconciled, LastTransitionTime: now}
	var n *note
	switch {
	case outcome == nil:
		c.Message = "the configuration, rule ConfigMaps and StatefulSets match the spec and the selected monitors"
	case errors.As(outcome, &n):
		c.Reason, c.Message = n.reason, n.message
	default:
		c.Status, c.Reason, c.Message = monitoringv1.ConditionFalse, reasonOf(outcome), resourcestatus.Truncate(outcome.Error(), resourcestatus.MaxMessageBytes)
	}
	for _, old := range p.Status.Conditions {
		if old.Type == c.Type && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
	}
	return c
}
