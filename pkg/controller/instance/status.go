package instance

import (
	"context"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// ChangeDescriber is what Steps may also implement to say, in the log line of a status
// write, what changed.
type ChangeDescriber[St any] interface {
	DescribeChange(old, cur St) string
}

// writeStatus asks the kind for the status after a reconcile and applies it (server-side
// apply, Lookout's field manager) only when it differs from what the object has and from
// what was written last.
func (r *Reconciler[O, S, St]) writeStatus(ctx context.Context, o O, obj client.Object, st *S, result error) error {
	status, live, err := r.steps.Status(ctx, o, st, result)
	if err != nil {
		return err
	}
	nn := types.NamespacedName{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if r.written.Unchanged(nn, status, live) {
		return nil
	}
	applied, err := resourcestatus.ApplyStatus(ctx, r.Client, r.Info.APIVersion, r.Info.Kind, nn.Namespace, nn.Name, status)
	r.Upstream.StatusUpdated(err)
	if err != nil || !applied {
		return err
	}
	r.written.Remember(nn, status)
	r.Applier.CountWrite(r.Info.Kind, "apply-status")
	if d, ok := r.steps.(ChangeDescriber[St]); ok {
		log.FromContext(ctx).Info(r.Info.Kind+" status written", "changed", d.DescribeChange(live, status))
	}
	return nil
}

// RepairStuck applies --repair-policy-for-statefulsets to the StatefulSets of one object
// whose rollout is stuck (write.Repairer). Every kind that owns StatefulSets calls it
// when it computes its status.
func (r *Reconciler[O, S, St]) RepairStuck(ctx context.Context, sets []appsv1.StatefulSet) {
	write.Repairer{Policy: r.Cfg.RepairPolicy, Client: r.Client, APIReader: r.APIReader, Applier: r.Applier, Recorder: r.Recorder}.RepairStuck(ctx, sets)
}

// Publish hands the verdicts on one kind of selected objects (monitors, rules,
// AlertmanagerConfigs) to the status store and counts them in lookout_managed_resources
// (selected, rejected); it returns the counts, for the kind's prometheus-operator metric.
func (r *Reconciler[O, S, St]) Publish(nn types.NamespacedName, kind string, vs []selection.Verdict) (accepted, rejected int) {
	r.Statuses.Publish(r.Owner(nn), kind, vs)
	sel, rej := 0, 0
	for _, v := range vs {
		switch v.Reason {
		case selection.Accepted:
			sel++
		case selection.InvalidConfiguration:
			rej++
		}
	}
	r.Metrics.managedResources.WithLabelValues(nn.Namespace, nn.Name, kind, "selected").Set(float64(sel))
	r.Metrics.managedResources.WithLabelValues(nn.Namespace, nn.Name, kind, "rejected").Set(float64(rej))
	return sel, rej
}

// OwnedStatefulSet reads the StatefulSet name of o from the cache: nil when it is missing
// or not o's. A stuck rollout of it is repaired on the way (RepairStuck).
func (r *Reconciler[O, S, St]) OwnedStatefulSet(ctx context.Context, o client.Object, name string) (*appsv1.StatefulSet, error) {
	sts := &appsv1.StatefulSet{}
	err := r.Client.Get(ctx, types.NamespacedName{Namespace: o.GetNamespace(), Name: name}, sts)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("reading the StatefulSet: %w", err)
	case !write.OwnedBy(sts, o.GetUID()):
		return nil, nil
	}
	r.RepairStuck(ctx, []appsv1.StatefulSet{*sts})
	return sts, nil
}

// WithReconciled appends the Reconciled condition of result to a status's conditions
// (ok is its message on plain success), then more (ConfigLoaded), and stamps every
// condition with the generation observed.
func WithReconciled(conds []monitoringv1.Condition, prev []monitoringv1.Condition, result error, ok string, generation int64, now metav1.Time, more ...monitoringv1.Condition) []monitoringv1.Condition {
	conds = append(conds, outcome.ReconciledCondition(prev, result, ok, now))
	conds = append(conds, more...)
	for i := range conds {
		conds[i].ObservedGeneration = generation
	}
	return conds
}
