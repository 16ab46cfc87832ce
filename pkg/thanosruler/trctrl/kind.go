package trctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

type (
	kind = instance.Kind[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, trState, monitoringv1.ThanosRulerStatus]
	base = instance.KindReconciler[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, trState, monitoringv1.ThanosRulerStatus]
)

// kind is what the ThanosRuler controller does differently from the other kinds with
// one StatefulSet.
func (r *Reconciler) kind() *kind {
	return &kind{
		Info: instance.Info{
			Kind: monitoringv1.ThanosRulerKind, APIVersion: monitoringv1.SchemeGroupVersion.String(), Resource: monitoringv1.ThanosRulerName,
			Paused: "spec.paused is set: the operator leaves the StatefulSet and rule ConfigMaps as they are",
		},
		Controller: "thanos-ruler",
		Defaults: func(t *monitoringv1.ThanosRuler) *monitoringv1.ThanosRuler {
			return r.cfg.DefaultVersions.OfThanosRuler(t)
		},
		Items:  func(l *monitoringv1.ThanosRulerList) []monitoringv1.ThanosRuler { return l.Items },
		Paused: func(t *monitoringv1.ThanosRuler) bool { return t.Spec.Paused },
		Apply:  r.reconcileObjects,

		StatefulSet: func(t *monitoringv1.ThanosRuler) string { return layout.ThanosRuler(t.Name).StatefulSet() },
		Status: func(t *monitoringv1.ThanosRuler, sts *appsv1.StatefulSet, now metav1.Time) monitoringv1.ThanosRulerStatus {
			return workload.ThanosRulerStatus(t, sts, nil, now)
		},
		Conditions: func(s *monitoringv1.ThanosRulerStatus) *[]monitoringv1.Condition { return &s.Conditions },
		Live:       func(t *monitoringv1.ThanosRuler) monitoringv1.ThanosRulerStatus { return t.Status },
		Reconciled: "the rule ConfigMaps, Secrets, Service and StatefulSet match the spec and the selected PrometheusRules",

		// The hash of the rule ConfigMaps this operator wrote last (package dirhash), which
		// the reloader reports once the ruler accepted their reload: unknown until the
		// operator has written them since it started.
		Hash: func(_ *monitoringv1.ThanosRuler, st *trState) string { return st.rulesHash },
		Reports: func(t *monitoringv1.ThanosRuler) bool {
			return workload.ThanosRulerOptions(t, r.cfg.Workload).ReloaderReportConfig
		},
		Pods:     workload.ThanosRulerPodNames,
		PodLabel: layout.ThanosRulerNameLabel,
		PodName:  workload.ThanosRulerNameValue,

		GoverningService:     layout.ThanosRulerGoverningServiceName,
		UsesGoverningService: workload.ManagesThanosRulerService,
	}
}
