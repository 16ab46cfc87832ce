package monitorkind

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Set holds monitors of every kind, in the order their jobs are generated. The objects are
// read, never changed (they may be the cache's own).
type Set struct {
	ServiceMonitors []*monitoringv1.ServiceMonitor
	PodMonitors     []*monitoringv1.PodMonitor
	Probes          []*monitoringv1.Probe
	ScrapeConfigs   []*monitoringv1alpha1.ScrapeConfig
}

// The monitor kinds.
var (
	ServiceMonitor = newKind(monitoringv1.ServiceMonitorsKind, monitoringv1.SchemeGroupVersion.String(), "serviceMonitor",
		func(s *monitoringv1.CommonPrometheusFields) (*metav1.LabelSelector, *metav1.LabelSelector) {
			return s.ServiceMonitorSelector, s.ServiceMonitorNamespaceSelector
		},
		func(s *Set) *[]*monitoringv1.ServiceMonitor { return &s.ServiceMonitors },
		func(l *monitoringv1.ServiceMonitorList) []monitoringv1.ServiceMonitor { return l.Items })
	PodMonitor = newKind(monitoringv1.PodMonitorsKind, monitoringv1.SchemeGroupVersion.String(), "podMonitor",
		func(s *monitoringv1.CommonPrometheusFields) (*metav1.LabelSelector, *metav1.LabelSelector) {
			return s.PodMonitorSelector, s.PodMonitorNamespaceSelector
		},
		func(s *Set) *[]*monitoringv1.PodMonitor { return &s.PodMonitors },
		func(l *monitoringv1.PodMonitorList) []monitoringv1.PodMonitor { return l.Items })
	Probe = newKind(monitoringv1.ProbesKind, monitoringv1.SchemeGroupVersion.String(), "probe",
		func(s *monitoringv1.CommonPrometheusFields) (*metav1.LabelSelector, *metav1.LabelSelector) {
			return s.ProbeSelector, s.ProbeNamespaceSelector
		},
		func(s *Set) *[]*monitoringv1.Probe { return &s.Probes },
		func(l *monitoringv1.ProbeList) []monitoringv1.Probe { return l.Items })
	ScrapeConfig = newKind(monitoringv1alpha1.ScrapeConfigsKind, monitoringv1alpha1.SchemeGroupVersion.String(), "scrapeConfig",
		func(s *monitoringv1.CommonPrometheusFields) (*metav1.LabelSelector, *metav1.LabelSelector) {
			return s.ScrapeConfigSelector, s.ScrapeConfigNamespaceSelector
		},
		func(s *Set) *[]*monitoringv1alpha1.ScrapeConfig { return &s.ScrapeConfigs },
		func(l *monitoringv1alpha1.ScrapeConfigList) []monitoringv1alpha1.ScrapeConfig { return l.Items })
)

// All are the monitor kinds, in the order their jobs are generated.
var All = []*Kind{ServiceMonitor, PodMonitor, Probe, ScrapeConfig}

// Named returns the monitor kind called name ("Probe"), or nil.
func Named(name string) *Kind {
	for _, k := range All {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// OfJobPrefix returns the monitor kind whose generated jobs start with prefix
// ("serviceMonitor" in "serviceMonitor/<ns>/<name>/<i>"), or nil.
func OfJobPrefix(prefix string) *Kind {
	for _, k := range All {
		if k.Field == prefix {
			return k
		}
	}
	return nil
}
