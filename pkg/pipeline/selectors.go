package pipeline

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// Selectors are a Prometheus's compiled selectors of every kind it selects.
type Selectors struct {
	ServiceMonitors, PodMonitors, Probes, ScrapeConfigs, Rules *selection.Compiled
}

// selectorFields are the spec fields (without "Selector") selecting each kind.
var selectorFields = map[string]string{
	monitoringv1.ServiceMonitorsKind: "serviceMonitor", monitoringv1.PodMonitorsKind: "podMonitor", monitoringv1.PrometheusRuleKind: "rule",
	monitoringv1.ProbesKind: "probe", monitoringv1alpha1.ScrapeConfigsKind: "scrapeConfig",
}

// Compile compiles p's selectors; an error names the spec fields.
func Compile(p *monitoringv1.Prometheus) (*Selectors, error) {
	compile := func(kind string, lbl, ns *metav1.LabelSelector) (*selection.Compiled, error) {
		c, err := selection.Compile(selection.Selector{Kind: kind, Labels: lbl, Namespaces: ns, OwnNamespace: p.Namespace})
		if err != nil {
			field := selectorFields[kind]
			return nil, fmt.Errorf("spec.%sSelector or spec.%sNamespaceSelector: %w", field, field, err)
		}
		return c, nil
	}
	s := &Selectors{}
	var err error
	if s.ServiceMonitors, err = compile(monitoringv1.ServiceMonitorsKind, p.Spec.ServiceMonitorSelector, p.Spec.ServiceMonitorNamespaceSelector); err != nil {
		return nil, err
	}
	if s.PodMonitors, err = compile(monitoringv1.PodMonitorsKind, p.Spec.PodMonitorSelector, p.Spec.PodMonitorNamespaceSelector); err != nil {
		return nil, err
	}
	if s.Rules, err = compile(monitoringv1.PrometheusRuleKind, p.Spec.RuleSelector, p.Spec.RuleNamespaceSelector); err != nil {
		return nil, err
	}
	if s.Probes, err = compile(monitoringv1.ProbesKind, p.Spec.ProbeSelector, p.Spec.ProbeNamespaceSelector); err != nil {
		return nil, err
	}
	if s.ScrapeConfigs, err = compile(monitoringv1alpha1.ScrapeConfigsKind, p.Spec.ScrapeConfigSelector, p.Spec.ScrapeConfigNamespaceSelector); err != nil {
		return nil, err
	}
	return s, nil
}

// ForKind returns the compiled selector of a monitor or rule kind (nil for another kind).
func (s *Selectors) ForKind(kind string) *selection.Compiled {
	switch kind {
	case monitoringv1.ServiceMonitorsKind:
		return s.ServiceMonitors
	case monitoringv1.PodMonitorsKind:
		return s.PodMonitors
	case monitoringv1.ProbesKind:
		return s.Probes
	case monitoringv1alpha1.ScrapeConfigsKind:
		return s.ScrapeConfigs
	case monitoringv1.PrometheusRuleKind:
		return s.Rules
	}
	return nil
}
