package instance

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amplan"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// The Kinds with one StatefulSet: what their controllers (pkg/alertmanager/amctrl,
// pkg/thanosruler/trctrl) share but for names, layout and status.

// AlertmanagerKind is the Alertmanager Kind.
var AlertmanagerKind = &Kind[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, monitoringv1.AlertmanagerStatus]{
	Info: Info{
		Kind: monitoringv1.AlertmanagersKind, APIVersion: monitoringv1.SchemeGroupVersion.String(), Resource: monitoringv1.AlertmanagerName,
		Paused: "spec.paused is set: the operator leaves the StatefulSet and configuration as they are",
	},
	Controller:  "alertmanager",
	Defaults:    versions.Defaults.OfAlertmanager,
	Paused:      func(a *monitoringv1.Alertmanager) bool { return a.Spec.Paused },
	StatefulSet: func(a *monitoringv1.Alertmanager) string { return layout.Alertmanager(a.Name).StatefulSet() },
	Status: func(a *monitoringv1.Alertmanager, sts *appsv1.StatefulSet, now metav1.Time) (_, _ monitoringv1.AlertmanagerStatus) {
		return amplan.AlertmanagerStatus(a, sts, nil, now), a.Status
	},
	Conditions:           func(s *monitoringv1.AlertmanagerStatus) *[]monitoringv1.Condition { return &s.Conditions },
	Reconciled:           "the configuration, Secrets, Service and StatefulSet match the spec",
	PodLabel:             layout.AlertmanagerNameLabel,
	PodName:              amplan.AlertmanagerNameValue,
	GoverningService:     layout.AlertmanagerGoverningServiceName,
	UsesGoverningService: amplan.ManagesAlertmanagerService,
}

// ThanosRulerKind is the ThanosRuler Kind.
var ThanosRulerKind = &Kind[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, monitoringv1.ThanosRulerStatus]{
	Info: Info{
		Kind: monitoringv1.ThanosRulerKind, APIVersion: monitoringv1.SchemeGroupVersion.String(), Resource: monitoringv1.ThanosRulerName,
		Paused: "spec.paused is set: the operator leaves the StatefulSet and rule ConfigMaps as they are",
	},
	Controller:  "thanos-ruler",
	Defaults:    versions.Defaults.OfThanosRuler,
	Paused:      func(t *monitoringv1.ThanosRuler) bool { return t.Spec.Paused },
	StatefulSet: func(t *monitoringv1.ThanosRuler) string { return layout.ThanosRuler(t.Name).StatefulSet() },
	Status: func(t *monitoringv1.ThanosRuler, sts *appsv1.StatefulSet, now metav1.Time) (_, _ monitoringv1.ThanosRulerStatus) {
		return trplan.ThanosRulerStatus(t, sts, nil, now), t.Status
	},
	Conditions:           func(s *monitoringv1.ThanosRulerStatus) *[]monitoringv1.Condition { return &s.Conditions },
	Reconciled:           "the rule ConfigMaps, Secrets, Service and StatefulSet match the spec and the selected PrometheusRules",
	PodLabel:             layout.ThanosRulerNameLabel,
	PodName:              trplan.ThanosRulerNameValue,
	GoverningService:     layout.ThanosRulerGoverningServiceName,
	UsesGoverningService: trplan.ManagesThanosRulerService,
}
