package amctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// SetupWithManager registers the controller and its watches:
//   - Alertmanager objects (spec, label or annotation changes) and the StatefulSets they
//     own (for status and to undo edits);
//   - Secrets and ConfigMaps (metadata only: the operator never caches their data): the
//     Secrets an Alertmanager owns, its config Secret, and those its last generation read;
//   - AlertmanagerConfigs (spec or label changes), mapped to the Alertmanagers with an
//     alertmanagerConfigSelector and to the one whose spec.alertmanagerConfiguration
//     names it;
//   - with Workload.ReloaderReportConfig, its pods (metadata and reported configuration
//     only), mapped to their Alertmanager, for the ConfigLoaded condition;
//   - with Config.WatchGoverningServices, the governing Service alertmanager-operated
//     (metadata only), mapped to the Alertmanagers of its namespace that use it. The
//     Prometheus controller's Service watch shares the same informer.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	b, on := r.Builder(mgr, "alertmanager", &monitoringv1.Alertmanager{})
	b = b.WatchesMetadata(&corev1.Secret{}, r.MapAsset("Secret", r.mapConfigSecret), on.Mapped("Secret")).
		WatchesMetadata(&corev1.ConfigMap{}, r.MapAsset("ConfigMap", nil), on.Mapped("ConfigMap")).
		Watches(&monitoringv1alpha1.AlertmanagerConfig{}, handler.EnqueueRequestsFromMapFunc(r.Map(monitoringv1alpha1.AlertmanagerConfigKind, false, usesConfig)), on.Mapped(monitoringv1alpha1.AlertmanagerConfigKind, instance.SpecOrLabels))
	b = r.WatchReportingPods(b, layout.AlertmanagerNameLabel, amplan.AlertmanagerNameValue)
	b = r.WatchGoverningService(b, layout.AlertmanagerGoverningServiceName, usesGoverningService)
	return r.Complete(b, r)
}

// usesGoverningService: an Alertmanager without spec.serviceName uses
// alertmanager-operated.
func usesGoverningService(_ context.Context, a *monitoringv1.Alertmanager, _ client.Object) bool {
	return amplan.ManagesAlertmanagerService(a)
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
