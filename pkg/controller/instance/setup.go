package instance

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/watch"
)

// SpecOrLabels passes the changes of a selected object that can change what it
// contributes: its spec or its labels.
var SpecOrLabels = predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})

// Builder starts the controller of the kind with the watches every kind has: its objects
// (spec, label or annotation changes) and the StatefulSets they own (for status and to
// undo edits). Every event is counted ahead of the filters (On), as prometheus-operator's
// prometheus_operator_triggered_total; the mapped watches a kind adds ignore the initial
// lists (On.Mapped).
func (r *Reconciler[O, S, St]) Builder(mgr ctrl.Manager, name string, obj client.Object) (*builder.Builder, watch.Triggers) {
	on := watch.Triggers(r.Upstream.EventCounter)
	b := ctrl.NewControllerManagedBy(mgr).
		Named(name).
		For(obj, on.Of(r.Info.Kind, predicate.Or(SpecOrLabels, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.StatefulSet{}, on.Of("StatefulSet"))
	return b, on
}

// WatchGoverningService adds, with Config.WatchGoverningServices, the watch of the
// governing Service name (metadata only), mapped to the objects of the Service's
// namespace that use it, so that a deleted or edited Service is restored at once.
func (r *Reconciler[O, S, St]) WatchGoverningService(b *builder.Builder, name string, uses func(ctx context.Context, inst O, svc client.Object) bool) *builder.Builder {
	if !r.Cfg.WatchGoverningServices {
		return b
	}
	return b.WatchesMetadata(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.Map("Service", true, uses)), builder.WithPredicates(watch.Named(name)))
}

// Complete registers the controller with the shared options (Config.MaxConcurrentReconciles,
// the default rate limiter), reconciling with rec.
func (r *Reconciler[O, S, St]) Complete(b *builder.Builder, rec reconcile.Reconciler) error {
	return b.WithOptions(controller.Options{
		MaxConcurrentReconciles: r.Cfg.MaxConcurrentReconciles,
		RateLimiter:             workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
	}).Complete(rec)
}
