package thanosruler

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
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

	"github.com/lookout-operator/lookout/pkg/controller/nslabels"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// SetupWithManager registers the controller and its watches:
//   - ThanosRuler objects (spec, label or annotation changes) and the StatefulSets they
//     own (for status and to undo edits);
//   - PrometheusRules (spec or label changes), mapped to the ThanosRulers whose selectors
//     match them before or after the change;
//   - Namespaces (metadata only), for rule namespace selectors;
//   - Secrets and ConfigMaps (metadata only: the operator never caches their data), mapped
//     to the ThanosRulers that own them or whose last reconcile read them;
//   - with Config.WatchGoverningServices, the governing Service thanos-ruler-operated
//     (metadata only), mapped to the ThanosRulers of its namespace that use it.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	specOrLabels := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})
	// Every event is counted, as prometheus-operator's prometheus_operator_triggered_total,
	// ahead of the filters; the mapped watches ignore the initial lists.
	on := watch.Triggers(r.Upstream.EventCounter)
	b := ctrl.NewControllerManagedBy(mgr).
		Named("thanos-ruler").
		For(&monitoringv1.ThanosRuler{}, on.Of(monitoringv1.ThanosRulerKind, predicate.Or(specOrLabels, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.StatefulSet{}, on.Of("StatefulSet")).
		Watches(&monitoringv1.PrometheusRule{}, handler.EnqueueRequestsFromMapFunc(r.mapRule), on.Mapped(monitoringv1.PrometheusRuleKind, specOrLabels)).
		WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(r.mapNamespace), on.Mapped("Namespace", predicate.LabelChangedPredicate{})).
		WatchesMetadata(&corev1.Secret{}, r.mapAsset("Secret"), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.mapAsset("ConfigMap"), on.Mapped("ConfigMap"))
	if r.cfg.WatchGoverningServices {
		b = b.WatchesMetadata(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.mapGoverningService),
			builder.WithPredicates(watch.Named(layout.ThanosRulerGoverningServiceName)))
	}
	return b.WithOptions(controller.Options{
		MaxConcurrentReconciles: r.cfg.MaxConcurrentReconciles,
		RateLimiter:             workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
	}).
		Complete(r)
}

// thanosRulers lists the managed ThanosRuler objects from the cache.
func (r *Reconciler) thanosRulers(ctx context.Context, opts ...client.ListOption) ([]*monitoringv1.ThanosRuler, error) {
	var list monitoringv1.ThanosRulerList
	if err := r.Client.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
		return nil, err
	}
	out := make([]*monitoringv1.ThanosRuler, 0, len(list.Items))
	for i := range list.Items {
		if r.managed(&list.Items[i]) {
			out = append(out, &list.Items[i])
		}
	}
	return out, nil
}

func request(t *monitoringv1.ThanosRuler) reconcile.Request {
	return reconcile.Request{NamespacedName: types.NamespacedName{Namespace: t.Namespace, Name: t.Name}}
}

// mapRule maps a PrometheusRule to the ThanosRulers selecting it. The handler runs for
// both the old and the new object of an update, so a rule that stops matching still
// reconciles the ThanosRuler that used to select it.
func (r *Reconciler) mapRule(ctx context.Context, o client.Object) []reconcile.Request {
	trs, err := r.thanosRulers(ctx)
	if err != nil {
		log.FromContext(ctx).Error(err, "listing ThanosRuler objects to map a PrometheusRule change to", "object", client.ObjectKeyFromObject(o))
		return nil
	}
	nsLabels, err := nslabels.List(ctx, r.Client)
	var out []reconcile.Request
	for _, t := range trs {
		if err != nil {
			out = append(out, request(t))
			continue
		}
		sel, cerr := r.stateFor(request(t).NamespacedName).compile(t)
		if cerr != nil || sel.Matches(o, r.cfg.RuleScope, nsLabels) {
			// An invalid selector is reported by the ThanosRuler's own reconcile.
			out = append(out, request(t))
		}
	}
	return out
}

// mapNamespace reconciles the ThanosRulers with a rule namespace selector when a
// namespace's labels change.
func (r *Reconciler) mapNamespace(ctx context.Context, o client.Object) []reconcile.Request {
	trs, err := r.thanosRulers(ctx)
	if err != nil {
		log.FromContext(ctx).Error(err, "listing ThanosRuler objects to map a namespace change to", "namespace", o.GetName())
		return nil
	}
	var out []reconcile.Request
	for _, t := range trs {
		if t.Spec.RuleNamespaceSelector != nil {
			out = append(out, request(t))
		}
	}
	return out
}

// mapAsset maps a Secret or ConfigMap to the ThanosRulers owning it and to those whose
// last reconcile read it.
func (r *Reconciler) mapAsset(kind string) handler.EventHandler {
	return watch.Changes(func(_ context.Context, o client.Object, deleted bool, q watch.Queue) {
		if !watch.OwnEcho(r.Applier.Wrote, kind, o, deleted) {
			watch.EnqueueOwnersOf(o, monitoringv1.SchemeGroupVersion.String(), monitoringv1.ThanosRulerKind, q)
		}
		for _, nn := range r.refs.Users(kind, o.GetNamespace(), o.GetName()) {
			q.Add(reconcile.Request{NamespacedName: nn})
		}
	})
}

// mapGoverningService reconciles the ThanosRulers that use the governing Service of the
// namespace, so that a deleted or edited thanos-ruler-operated is restored at once.
func (r *Reconciler) mapGoverningService(ctx context.Context, o client.Object) []reconcile.Request {
	trs, err := r.thanosRulers(ctx, client.InNamespace(o.GetNamespace()))
	if err != nil {
		log.FromContext(ctx).Error(err, "listing ThanosRuler objects to map a Service change to", "service", client.ObjectKeyFromObject(o))
		return nil
	}
	var out []reconcile.Request
	for _, t := range trs {
		if workload.ManagesThanosRulerService(t) {
			out = append(out, request(t))
		}
	}
	return out
}
