package trctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
)

// steps are the ThanosRuler steps of the shared instance lifecycle.
func steps(r *Reconciler) instance.Funcs[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, trState, monitoringv1.ThanosRulerStatus] {
	return instance.Funcs[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, trState, monitoringv1.ThanosRulerStatus]{
		Defaults: func(t *monitoringv1.ThanosRuler) *monitoringv1.ThanosRuler {
			return r.cfg.DefaultVersions.OfThanosRuler(t)
		},
		Items:     func(l *monitoringv1.ThanosRulerList) []monitoringv1.ThanosRuler { return l.Items },
		IsPaused:  func(t *monitoringv1.ThanosRuler) bool { return t.Spec.Paused },
		Reconcile: r.reconcileObjects,
		NewStatus: r.status,
		Live:      func(t *monitoringv1.ThanosRuler) monitoringv1.ThanosRulerStatus { return t.Status },
	}
}
