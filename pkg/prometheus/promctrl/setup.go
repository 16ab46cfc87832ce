package promctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
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
	b, on := r.Builder(mgr, r.kind.Name, r.kind.object())
	for _, k := range monitorkind.All {
		b = b.Watches(k.New(), r.mapSelected(k.Name), on.Mapped(k.Name, instance.SpecOrLabels))
	}
	if r.kind.agent() && r.cfg.AgentDaemonSet {
		b = b.Owns(&appsv1.DaemonSet{}, on.Of("DaemonSet"))
	}
	if !r.kind.agent() {
		b = b.Watches(&monitoringv1.PrometheusRule{}, r.mapSelected(monitoringv1.PrometheusRuleKind), on.Mapped(monitoringv1.PrometheusRuleKind, instance.SpecOrLabels))
	}
	b = b.WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(r.Map("Namespace", false, usesNamespaceSelector)), on.Mapped("Namespace", predicate.LabelChangedPredicate{})).
		WatchesMetadata(&corev1.Secret{}, r.MapAsset("Secret", nil), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.MapAsset("ConfigMap", nil), on.Mapped("ConfigMap"))
	svc, nameValue := layout.GoverningServiceName, promplan.PrometheusNameValue
	if r.kind.agent() {
		svc, nameValue = layout.AgentGoverningServiceName, promplan.AgentNameValue
	}
	b = r.WatchReportingPods(b, layout.PrometheusNameLabel, nameValue)
	b = r.WatchGoverningService(b, svc, usesGoverningService)
	return r.Complete(b, r)
}

// mapSelected maps a monitor or rule to the Prometheus objects selecting it. The handler
// runs for both the old and the new object of an update, so a monitor that stops
// matching still reconciles the Prometheus that used to select it.
func (r *Reconciler) mapSelected(kind string) handler.EventHandler {
	return handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
		proms, err := r.Objects(ctx)
		if err != nil {
			log.FromContext(ctx).Error(err, "listing Prometheus objects to map a change to", "kind", kind, "object", client.ObjectKeyFromObject(o))
			return nil
		}
		// Namespace labels are listed only when a selector asks for them: at start-up every
		// monitor's add event comes through here, and most selectors name no labels.
		nsLabels, lookup := r.lazyNamespaceLabels(ctx)
		var out []reconcile.Request
		for _, p := range proms {
			sel, err := r.State(nnOf(p)).compile(p)
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

// usesNamespaceSelector: a Prometheus with a namespace selector is reconciled when a
// namespace's labels change (namespaces in its own namespace never matter).
func usesNamespaceSelector(_ context.Context, p *promserver.Server, _ client.Object) bool {
	for _, k := range monitorkind.All {
		if _, ns := k.Selectors(p.Spec); ns != nil {
			return true
		}
	}
	return p.PrometheusOnly().RuleNamespaceSelector != nil
}

// usesGoverningService: a Prometheus without spec.serviceName uses prometheus-operated.
func usesGoverningService(_ context.Context, p *promserver.Server, _ client.Object) bool {
	return promplan.ManagesGoverningService(p)
}

func requests(proms []*promserver.Server) []reconcile.Request {
	out := make([]reconcile.Request, len(proms))
	for i, p := range proms {
		out[i] = reconcile.Request{NamespacedName: nnOf(p)}
	}
	return out
}
