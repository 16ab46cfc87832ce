package amctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
)

// watches are the Alertmanager controller's own (besides instance.KindReconciler's):
//   - Secrets and ConfigMaps (metadata only: the operator never caches their data): the
//     Secrets an Alertmanager owns, its config Secret, and those its last generation read;
//   - AlertmanagerConfigs (spec or label changes), mapped to the Alertmanagers with an
//     alertmanagerConfigSelector and to the one whose spec.alertmanagerConfiguration
//     names it.
//
// Its governing Service watch shares the Prometheus controller's informer.
func (r *Reconciler) watches(b *builder.Builder, on watch.Triggers) *builder.Builder {
	return b.WatchesMetadata(&corev1.Secret{}, r.MapAsset("Secret", r.mapConfigSecret), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.MapAsset("ConfigMap", nil), on.Mapped("ConfigMap")).
		Watches(&monitoringv1alpha1.AlertmanagerConfig{}, handler.EnqueueRequestsFromMapFunc(r.Map(monitoringv1alpha1.AlertmanagerConfigKind, false, usesConfig)), on.Mapped(monitoringv1alpha1.AlertmanagerConfigKind, instance.SpecOrLabels))
}

// usesConfig: the Alertmanagers that select AlertmanagerConfigs at all are reconciled
// when one changes (selection itself runs in their reconcile), and the one whose
// spec.alertmanagerConfiguration names it.
func usesConfig(_ context.Context, a *monitoringv1.Alertmanager, o client.Object) bool {
	global := a.Spec.AlertmanagerConfiguration != nil && a.Namespace == o.GetNamespace() && a.Spec.AlertmanagerConfiguration.Name == o.GetName()
	return a.Spec.AlertmanagerConfigSelector != nil || global
}

// mapConfigSecret maps a Secret to the Alertmanagers of its namespace that read it as
// their config Secret.
func (r *Reconciler) mapConfigSecret(ctx context.Context, o client.Object, q watch.Queue) {
	for _, req := range r.Map("Secret", true, func(_ context.Context, a *monitoringv1.Alertmanager, o client.Object) bool {
		return amplan.AlertmanagerConfigSecretName(a) == o.GetName()
	})(ctx, o) {
		q.Add(req)
	}
}
