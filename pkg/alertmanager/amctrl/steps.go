package amctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// steps are the Alertmanager steps of the shared instance lifecycle.
func steps(r *Reconciler) instance.Funcs[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, amState, monitoringv1.AlertmanagerStatus] {
	return instance.Funcs[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, amState, monitoringv1.AlertmanagerStatus]{
		Defaults: func(a *monitoringv1.Alertmanager) *monitoringv1.Alertmanager {
			return r.cfg.DefaultVersions.OfAlertmanager(a)
		},
		Items:     func(l *monitoringv1.AlertmanagerList) []monitoringv1.Alertmanager { return l.Items },
		IsPaused:  func(a *monitoringv1.Alertmanager) bool { return a.Spec.Paused },
		Reconcile: r.reconcileObjects,
		NewStatus: r.status,
		Live:      func(a *monitoringv1.Alertmanager) monitoringv1.AlertmanagerStatus { return a.Status },
		// The generator's cache of a gone Alertmanager.
		Drop: func(nn types.NamespacedName) {
			if g, ok := r.Generator.(interface{ Forget(types.NamespacedName) }); ok {
				g.Forget(nn)
			}
		},
	}
}
