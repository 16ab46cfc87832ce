package monitorcost

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

// Limits are a Prometheus's sample limits (0: none): spec.enforcedSampleLimit, which
// caps every monitor's, and spec.sampleLimit, the global sample_limit of jobs without
// one. The value is comparable.
type Limits struct {
	Enforced, Global int64
}

// LimitsOf reads the limits of a Prometheus spec.
func LimitsOf(s *monitoringv1.CommonPrometheusFields) Limits {
	var l Limits
	if s != nil && s.EnforcedSampleLimit != nil && *s.EnforcedSampleLimit > 0 {
		l.Enforced = *s.EnforcedSampleLimit
	}
	if s != nil && s.SampleLimit != nil && *s.SampleLimit > 0 {
		l.Global = *s.SampleLimit
	}
	return l
}

// Limit is the sample limit in force for a monitor's targets: its value (0: none) and
// the field it comes from.
type Limit struct {
	Value int64
	Field string // "sampleLimit", "enforcedSampleLimit", "the Prometheus's sampleLimit"
}

// InForce returns the limit a monitor's jobs run with, as the generated configuration
// sets it (pkg/prometheus/promcfg): the smaller of the monitor's sampleLimit and the
// Prometheus's enforcedSampleLimit (the enforced one alone when the monitor sets none);
// a job without sample_limit gets Prometheus's global one.
func (l Limits) InForce(own *int64) Limit {
	switch {
	case l.Enforced > 0 && (own == nil || *own <= 0 || *own > l.Enforced):
		return Limit{l.Enforced, "enforcedSampleLimit"}
	case own != nil && *own > 0:
		return Limit{*own, "sampleLimit"}
	case l.Global > 0:
		return Limit{l.Global, "the Prometheus's sampleLimit"}
	}
	return Limit{}
}

// SampleLimitOf returns the spec.sampleLimit of a monitor of any kind (nil: not set, or
// not a monitor).
func SampleLimitOf(obj any) *int64 {
	switch m := obj.(type) {
	case *monitoringv1.ServiceMonitor:
		return m.Spec.SampleLimit
	case *monitoringv1.PodMonitor:
		return m.Spec.SampleLimit
	case *monitoringv1.Probe:
		return m.Spec.SampleLimit
	case *monitoringv1alpha1.ScrapeConfig:
		return m.Spec.SampleLimit
	}
	return nil
}
