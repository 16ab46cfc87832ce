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
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// SetupWithManager registers the controller and its watches:
//   - Alertmanager objects (spec, label or annotation changes) and the StatefulSets they
//     own (for status and to undo edits);
//   - Secrets and ConfigMaps (metadata only: the operator never caches their data): the
//     Secrets an Alertmanager owns, its config Secret, and those its last generation read;
//   - AlertmanagerConfigs (spec or label changes), mapped to the Alertmanagers with an
//     alertmanagerConfigSelector and to the one whose spec.alertmanagerConfiguration
//     names it;
//   - with Config.WatchGoverningServices, the governing Service alertmanager-operated
//     (metadata only), mapped to the Alertmanagers of its namespace that use it. The
//     Prometheus controller's Service watch shares the same informer.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	specOrLabels := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})
	// Every event is counted, as prometheus-operator's prometheus_operator_triggered_total,
	// ahead of the filters; the mapped watches ignore the initial lists.
	on := watch.Triggers(r.Upstream.EventCounter)
	b := ctrl.NewControllerManagedBy(mgr).
		Named("alertmanager").
		For(&monitoringv1.Alertmanager{}, on.Of(monitoringv1.AlertmanagersKind, predicate.Or(specOrLabels, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.StatefulSet{}, on.Of("StatefulSet")).
		WatchesMetadata(&corev1.Secret{}, r.mapAsset("Secret"), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.mapAsset("ConfigMap"), on.Mapped("ConfigMap")).
		Watches(&monitoringv1alpha1.AlertmanagerConfig{}, handler.EnqueueRequestsFromMapFunc(r.mapConfig), on.Mapped(monitoringv1alpha1.AlertmanagerConfigKind, specOrLabels))
	if r.cfg.WatchGoverningServices {
		b = b.WatchesMetadata(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.mapGoverningService),
			builder.WithPredicates(watch.Named(layout.AlertmanagerGoverningServiceName)))
	}
	return b.WithOptions(controller.Options{
		MaxConcurrentReconciles: r.cfg.MaxConcurrentReconciles,
		RateLimiter:             workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
	}).
		Complete(r)
}

// mapGoverningService reconciles the Alertmanagers that use the governing Service of the
// namespace (those without spec.serviceName), so that a deleted or edited
// alertmanager-operated is restored at once.
func (r *Reconciler) mapGoverningService(ctx context.Context, o client.Object) []reconcile.Request {
	ams, err := r.alertmanagers(ctx, client.InNamespace(o.GetNamespace()))
	if err != nil {
		log.FromContext(ctx).Error(err, "listing Alertmanager objects to map a Service change to", "service", client.ObjectKeyFromObject(o))
		return nil
	}
	var out []reconcile.Request
	for _, a := range ams {
		if workload.ManagesAlertmanagerService(a) {
			out = append(out, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Namespace, Name: a.Name}})
		}
	}
	return out
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
	return watch.Changes(func(ctx context.Context, o client.Object, deleted bool, q watch.Queue) {
		for _, nn := range r.refs.Users(kind, o.GetNamespace(), o.GetName()) {
			q.Add(reconcile.Request{NamespacedName: nn})
		}
		if kind != "Secret" {
			return
		}
		if !watch.OwnEcho(r.Applier.Wrote, kind, o, deleted) {
			watch.EnqueueOwners(o, monitoringv1.AlertmanagersKind, q)
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
	})
}
