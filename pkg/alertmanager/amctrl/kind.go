package amctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/workload"
)

type (
	kind = instance.Kind[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, amState, monitoringv1.AlertmanagerStatus]
	base = instance.KindReconciler[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, amState, monitoringv1.AlertmanagerStatus]
)

// kind is what the Alertmanager controller does differently from the other kinds with
// one StatefulSet.
func (r *Reconciler) kind() *kind {
	return &kind{
		Info: instance.Info{
			Kind: monitoringv1.AlertmanagersKind, APIVersion: monitoringv1.SchemeGroupVersion.String(), Resource: monitoringv1.AlertmanagerName,
			Paused: "spec.paused is set: the operator leaves the StatefulSet and configuration as they are",
		},
		Controller: "alertmanager",
		Defaults: func(a *monitoringv1.Alertmanager) *monitoringv1.Alertmanager {
			return r.cfg.DefaultVersions.OfAlertmanager(a)
		},
		Items:  func(l *monitoringv1.AlertmanagerList) []monitoringv1.Alertmanager { return l.Items },
		Paused: func(a *monitoringv1.Alertmanager) bool { return a.Spec.Paused },
		Apply:  r.reconcileObjects,
		// The generator's cache of a gone Alertmanager.
		Drop: func(nn types.NamespacedName) {
			if g, ok := r.Generator.(interface{ Forget(types.NamespacedName) }); ok {
				g.Forget(nn)
			}
		},

		StatefulSet: func(a *monitoringv1.Alertmanager) string { return layout.Alertmanager(a.Name).StatefulSet() },
		Status: func(a *monitoringv1.Alertmanager, sts *appsv1.StatefulSet, now metav1.Time) monitoringv1.AlertmanagerStatus {
			return workload.AlertmanagerStatus(a, sts, nil, now)
		},
		Conditions: func(s *monitoringv1.AlertmanagerStatus) *[]monitoringv1.Condition { return &s.Conditions },
		Live:       func(a *monitoringv1.Alertmanager) monitoringv1.AlertmanagerStatus { return a.Status },
		Reconciled: "the configuration, Secrets, Service and StatefulSet match the spec",

		// The hash of the configuration this operator wrote last: unknown until it has
		// written one since it started (Alertmanager's generated Secret holds the
		// configuration compressed, with its templates, so no annotation holds the hash
		// its reloader reports).
		Hash: func(_ *monitoringv1.Alertmanager, st *amState) string { return st.configHash },
		Reports: func(a *monitoringv1.Alertmanager) bool {
			opts, _ := r.workloadOptions(a)
			return opts.ReloaderReportConfig
		},
		Pods:     workload.AlertmanagerPodNames,
		PodLabel: layout.AlertmanagerNameLabel,
		PodName:  workload.AlertmanagerNameValue,

		GoverningService:     layout.AlertmanagerGoverningServiceName,
		UsesGoverningService: workload.ManagesAlertmanagerService,
	}
}
