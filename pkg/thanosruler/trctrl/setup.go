package trctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/nslabels"
	"github.com/lookout-operator/lookout/pkg/layout"
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
	b, on := r.Builder(mgr, "thanos-ruler", &monitoringv1.ThanosRuler{})
	b = b.Watches(&monitoringv1.PrometheusRule{}, handler.EnqueueRequestsFromMapFunc(r.mapRule), on.Mapped(monitoringv1.PrometheusRuleKind, instance.SpecOrLabels)).
		WatchesMetadata(&corev1.Namespace{}, handler.EnqueueRequestsFromMapFunc(r.Map("Namespace", false, usesNamespaceSelector)), on.Mapped("Namespace", predicate.LabelChangedPredicate{})).
		WatchesMetadata(&corev1.Secret{}, r.MapAsset("Secret", nil), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.MapAsset("ConfigMap", nil), on.Mapped("ConfigMap"))
	b = r.WatchGoverningService(b, layout.ThanosRulerGoverningServiceName, usesGoverningService)
	return r.Complete(b, r)
}

// mapRule maps a PrometheusRule to the ThanosRulers selecting it. The handler runs for
// both the old and the new object of an update, so a rule that stops matching still
// reconciles the ThanosRuler that used to select it.
func (r *Reconciler) mapRule(ctx context.Context, o client.Object) []reconcile.Request {
	nsLabels, err := nslabels.List(ctx, r.Client)
	return r.Map(monitoringv1.PrometheusRuleKind, false, func(_ context.Context, t *monitoringv1.ThanosRuler, o client.Object) bool {
		if err != nil {
			return true
		}
		sel, cerr := r.State(instance.Request(t).NamespacedName).compile(t)
		// An invalid selector is reported by the ThanosRuler's own reconcile.
		return cerr != nil || sel.Matches(o, r.cfg.RuleScope, nsLabels)
	})(ctx, o)
}

// usesNamespaceSelector: a ThanosRuler with a rule namespace selector is reconciled when
// a namespace's labels change.
func usesNamespaceSelector(_ context.Context, t *monitoringv1.ThanosRuler, _ client.Object) bool {
	return t.Spec.RuleNamespaceSelector != nil
}

// usesGoverningService: a ThanosRuler without spec.serviceName uses thanos-ruler-operated.
func usesGoverningService(_ context.Context, t *monitoringv1.ThanosRuler, _ client.Object) bool {
	return trplan.ManagesThanosRulerService(t)
}
