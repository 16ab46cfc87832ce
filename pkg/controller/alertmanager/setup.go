package alertmanager

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/workload"
)

// SetupWithManager registers the controller and its watches:
//   - Alertmanager objects (spec, label or annotation changes) and the StatefulSets they
//     own (for status and to undo edits);
//   - Secrets (metadata only: the operator never caches their data): the ones an
//     Alertmanager owns, and its config Secret;
//   - AlertmanagerConfigs (spec or label changes), mapped to the Alertmanagers with an
//     alertmanagerConfigSelector.
//
// The governing Service is not watched: Services are read from the API server, as the
// operator's RBAC (and prometheus-operator's) does not list or watch them.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	specOrLabels := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})
	// triggered counts the events of a kind, prometheus-operator's
	// prometheus_operator_triggered_total, ahead of the filters.
	triggered := func(kind string, p ...predicate.Predicate) builder.Predicates {
		return builder.WithPredicates(append([]predicate.Predicate{r.countEvents(kind)}, p...)...)
	}
	return ctrl.NewControllerManagedBy(mgr).
		Named("alertmanager").
		For(&monitoringv1.Alertmanager{}, triggered(monitoringv1.AlertmanagersKind, predicate.Or(specOrLabels, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.StatefulSet{}, triggered("StatefulSet")).
		WatchesMetadata(&corev1.Secret{}, r.mapAsset("Secret"), triggered("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.mapAsset("ConfigMap"), triggered("ConfigMap")).
		Watches(&monitoringv1alpha1.AlertmanagerConfig{}, handler.EnqueueRequestsFromMapFunc(r.mapConfig), triggered(monitoringv1alpha1.AlertmanagerConfigKind, specOrLabels)).
		WithOptions(controller.Options{
			MaxConcurrentReconciles: r.cfg.MaxConcurrentReconciles,
			RateLimiter:             workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
		}).
		Complete(r)
}

// countEvents counts every event of kind in prometheus_operator_triggered_total and lets
// it through.
func (r *Reconciler) countEvents(kind string) predicate.Predicate {
	return predicate.Funcs{
		CreateFunc:  func(event.CreateEvent) bool { r.Upstream.Triggered(kind, "add"); return true },
		UpdateFunc:  func(event.UpdateEvent) bool { r.Upstream.Triggered(kind, "update"); return true },
		DeleteFunc:  func(event.DeleteEvent) bool { r.Upstream.Triggered(kind, "delete"); return true },
		GenericFunc: func(event.GenericEvent) bool { return true },
	}
}

// alertmanagers lists the managed Alertmanager objects from the cache.
func (r *Reconciler) alertmanagers(ctx context.Context, opts ...client.ListOption) ([]*monitoringv1.Alertmanager, error) {
	var list monitoringv1.AlertmanagerList
	if err := r.Client.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	out := make([]*monitoringv1.Alertmanager, 0, len(list.Items))
	for i := range list.Items {
		if r.managed(&list.Items[i]) {
			out = append(out, &list.Items[i])
		}
	}
	return out, nil
}

// mapConfig reconciles the Alertmanagers that select AlertmanagerConfigs at all when one
// changes (selection itself runs in their reconcile).
func (r *Reconciler) mapConfig(ctx context.Context, o client.Object) []reconcile.Request {
	ams, err := r.alertmanagers(ctx)
	if err != nil {
		log.FromContext(ctx).Error(err, "listing Alertmanager objects to map an AlertmanagerConfig change to", "object", client.ObjectKeyFromObject(o))
		return nil
	}
	var out []reconcile.Request
	for _, a := range ams {
		global := a.Spec.AlertmanagerConfiguration != nil && a.Namespace == o.GetNamespace() && a.Spec.AlertmanagerConfiguration.Name == o.GetName()
		if a.Spec.AlertmanagerConfigSelector != nil || global {
			out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Namespace, Name: a.Name}})
		}
	}
	return out
}

// mapAsset maps a Secret or ConfigMap to the Alertmanagers owning it, reading it as
// config Secret, or whose last generation read it (an AlertmanagerConfig's reference).
func (r *Reconciler) mapAsset(kind string) handler.EventHandler {
	enqueue := func(ctx context.Context, o client.Object, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
		for _, nn := range r.usersOf(kind + "/" + o.GetNamespace() + "/" + o.GetName()) {
			q.Add(reconcile.Request{NamespacedName: nn})
		}
		if kind != "Secret" {
			return
		}
		for _, ref := range o.GetOwnerReferences() {
			if ref.Kind == monitoringv1.AlertmanagersKind && ref.APIVersion == monitoringv1.SchemeGroupVersion.String() {
				q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: ref.Name}})
			}
		}
		ams, err := r.alertmanagers(ctx, client.InNamespace(o.GetNamespace()))
		if err != nil {
			log.FromContext(ctx).Error(err, "listing Alertmanager objects to map a Secret change to", "secret", client.ObjectKeyFromObject(o))
			return
		}
		for _, a := range ams {
			if workload.AlertmanagerConfigSecretName(a) == o.GetName() {
				q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Namespace, Name: a.Name}})
			}
		}
	}
	return handler.Funcs{
		CreateFunc: func(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			enqueue(ctx, e.Object, q)
		},
		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			if e.ObjectOld.GetResourceVersion() == e.ObjectNew.GetResourceVersion() {
				return // a resync: nothing changed
			}
			enqueue(ctx, e.ObjectNew, q)
		},
		DeleteFunc: func(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
			enqueue(ctx, e.Object, q)
		},
	}
}

// usersOf lists the Alertmanagers whose last generation read ref ("Kind/namespace/name").
func (r *Reconciler) usersOf(ref string) []types.NamespacedName {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []types.NamespacedName
	for nn, refs := range r.refs {
		if refs[ref] {
			out = append(out, nn)
		}
	}
	return out
}

// setRefs records what the last generation of nn read.
func (r *Reconciler) setRefs(nn types.NamespacedName, refs map[string]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(refs) == 0 {
		delete(r.refs, nn)
		return
	}
	r.refs[nn] = refs
}
