package prometheus

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// SetupWithManager registers the controller and its watches:
//   - Prometheus objects (spec, label or annotation changes), and the StatefulSets they
//     own (for status);
//   - ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and PrometheusRules (spec or
//     label changes), mapped to the Prometheus objects whose selectors match them before
//     or after the change;
//   - Namespaces (metadata only), for namespace selectors;
//   - Secrets and ConfigMaps (metadata only: the operator never caches their data), mapped
//     to the Prometheus objects that own or reference them;
//   - with Workload.ReloaderReportConfig, its pods (metadata and reported configuration
//     only), mapped to their Prometheus, for the ConfigLoaded condition;
//   - with Config.WatchGoverningServices, the governing Service prometheus-operated
//     (metadata only), mapped to the Prometheus objects of its namespace.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	specOrLabels := predicate.Or(predicate.GenerationChangedPredicate{}, predicate.LabelChangedPredicate{})
	// Every event is counted, as prometheus-operator's prometheus_operator_triggered_total,
	// ahead of the filters; the mapped watches ignore the initial lists.
	on := watch.Triggers(r.Upstream.EventCounter)
	b := ctrl.NewControllerManagedBy(mgr).
		Named(r.kind.Name).
		For(r.kind.object(), on.Of(r.kind.Kind, predicate.Or(specOrLabels, predicate.AnnotationChangedPredicate{}))).
		Owns(&appsv1.StatefulSet{}, on.Of("StatefulSet")).
		Watches(&monitoringv1.ServiceMonitor{}, r.mapSelected(monitoringv1.ServiceMonitorsKind), on.Mapped(monitoringv1.ServiceMonitorsKind, specOrLabels)).
		Watches(&monitoringv1.PodMonitor{}, r.mapSelected(monitoringv1.PodMonitorsKind), on.Mapped(monitoringv1.PodMonitorsKind, specOrLabels)).
		Watches(&monitoringv1.Probe{}, r.mapSelected(monitoringv1.ProbesKind), on.Mapped(monitoringv1.ProbesKind, specOrLabels)).
		Watches(&monitoringv1alpha1.ScrapeConfig{}, r.mapSelected(monitoringv1alpha1.ScrapeConfigsKind), on.Mapped(monitoringv1alpha1.ScrapeConfigsKind, specOrLabels))
	if r.kind.agent() && r.cfg.AgentDaemonSet {
		b = b.Owns(&appsv1.DaemonSet{}, on.Of("DaemonSet"))
	}
	if !r.kind.agent() {
		b = b.Watches(&monitoringv1.PrometheusRule{}, r.mapSelected(monitoringv1.PrometheusRuleKind), on.Mapped(monitoringv1.PrometheusRuleKind, specOrLabels))
	}
	b = b.WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(r.mapNamespace), on.Mapped("Namespace", predicate.LabelChangedPredicate{})).
		WatchesMetadata(&corev1.Secret{}, r.mapAsset("Secret"), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.mapAsset("ConfigMap"), on.Mapped("ConfigMap"))
	if r.cfg.Workload.ReloaderReportConfig {
		// The pods' reported configuration (the pod cache keeps little else: StripPod).
		b = b.Watches(&corev1.Pod{}, handler.EnqueueRequestsFromMapFunc(r.mapPod), builder.WithPredicates(reportChanged))
	}
	if r.cfg.WatchGoverningServices {
		svc := layout.GoverningServiceName
		if r.kind.agent() {
			svc = layout.AgentGoverningServiceName
		}
		b = b.WatchesMetadata(&corev1.Service{}, handler.EnqueueRequestsFromMapFunc(r.mapGoverningService),
			builder.WithPredicates(watch.Named(svc)))
	}
	return b.WithOptions(controller.Options{
		MaxConcurrentReconciles: r.cfg.MaxConcurrentReconciles,
		RateLimiter:             workqueue.DefaultTypedControllerRateLimiter[reconcile.Request](),
	}).
		Complete(r)
}

// prometheuses lists the managed Prometheus (or PrometheusAgent) objects from the cache.
func (r *Reconciler) prometheuses(ctx context.Context) ([]*monitoringv1.Prometheus, error) {
	list, err := r.kind.list(ctx, r.Client)
	if err != nil {
		return nil, err
	}
	out := list[:0]
	for _, p := range list {
		if r.managed(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// mapSelected maps a monitor or rule to the Prometheus objects selecting it. The handler
// runs for both the old and the new object of an update, so a monitor that stops
// matching still reconciles the Prometheus that used to select it.
func (r *Reconciler) mapSelected(kind string) handler.EventHandler {
	return handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
		proms, err := r.prometheuses(ctx)
		if err != nil {
			log.FromContext(ctx).Error(err, "listing Prometheus objects to map a change to", "kind", kind, "object", client.ObjectKeyFromObject(o))
			return nil
		}
		// Namespace labels are listed only when a selector asks for them: at start-up every
		// monitor's add event comes through here, and most selectors name no labels.
		nsLabels, lookup := r.lazyNamespaceLabels(ctx)
		var out []reconcile.Request
		for _, p := range proms {
			sel, err := r.stateFor(nnOf(p)).compile(p)
			if err != nil || sel.ForKind(kind).Matches(o, r.cfg.Scope, nsLabels) {
				// An invalid selector is reported by the Prometheus's own reconcile.
				out = append(out, reconcile.Request{NamespacedName: nnOf(p)})
			}
		}
		if err := lookup(); err != nil {
			log.FromContext(ctx).Error(err, "reading namespace labels to map a change; reconciling every Prometheus", "kind", kind)
			return requests(proms)
		}
		return out
	})
}

// lazyNamespaceLabels returns namespace labels read from the cache on first use, and a
// function giving the error of that read (nil when it succeeded or never happened).
func (r *Reconciler) lazyNamespaceLabels(ctx context.Context) (selection.NamespaceLabels, func() error) {
	var (
		labels selection.NamespaceLabels
		err    error
	)
	get := func(ns string) (map[string]string, bool) {
		if labels == nil && err == nil {
			labels, err = r.namespaceLabels(ctx)
		}
		if err != nil {
			return nil, false
		}
		return labels(ns)
	}
	return get, func() error { return err }
}

// mapNamespace reconciles the Prometheus objects with a namespace selector when a
// namespace's labels change (namespaces in the Prometheus's own namespace never matter).
func (r *Reconciler) mapNamespace(ctx context.Context, o client.Object) []reconcile.Request {
	proms, err := r.prometheuses(ctx)
	if err != nil {
		log.FromContext(ctx).Error(err, "listing Prometheus objects to map a namespace change to", "namespace", o.GetName())
		return nil
	}
	var out []reconcile.Request
	for _, p := range proms {
		s := &p.Spec
		if s.ServiceMonitorNamespaceSelector != nil || s.PodMonitorNamespaceSelector != nil || s.RuleNamespaceSelector != nil ||
			s.ProbeNamespaceSelector != nil || s.ScrapeConfigNamespaceSelector != nil {
			out = append(out, reconcile.Request{NamespacedName: nnOf(p)})
		}
	}
	return out
}

func requests(proms []*monitoringv1.Prometheus) []reconcile.Request {
	out := make([]reconcile.Request, len(proms))
	for i, p := range proms {
		out[i] = reconcile.Request{NamespacedName: nnOf(p)}
	}
	return out
}

// mapAsset maps a Secret or ConfigMap to its owning Prometheus objects and to the
// Prometheus objects whose configuration read it.
func (r *Reconciler) mapAsset(kind string) handler.EventHandler {
	return watch.Changes(func(_ context.Context, o client.Object, deleted bool, q watch.Queue) {
		if !watch.OwnEcho(r.Applier.Wrote, kind, o, deleted) {
			watch.EnqueueOwnersOf(o, r.kind.APIVersion, r.kind.Kind, q)
		}
		for _, p := range r.refs.Users(kind, o.GetNamespace(), o.GetName()) {
			q.Add(reconcile.Request{NamespacedName: p})
		}
	})
}

// mapGoverningService reconciles the Prometheus objects that use the governing Service of
// the namespace (those without spec.serviceName), so that a deleted or edited
// prometheus-operated is restored at once.
func (r *Reconciler) mapGoverningService(ctx context.Context, o client.Object) []reconcile.Request {
	proms, err := r.prometheuses(ctx)
	if err != nil {
		log.FromContext(ctx).Error(err, "listing Prometheus objects to map a Service change to", "service", client.ObjectKeyFromObject(o))
		return nil
	}
	var out []reconcile.Request
	for _, p := range proms {
		if p.Namespace == o.GetNamespace() && workload.ManagesGoverningService(p) {
			out = append(out, reconcile.Request{NamespacedName: nnOf(p)})
		}
	}
	return out
}
