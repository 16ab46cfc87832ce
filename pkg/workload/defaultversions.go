package workload

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Versions are the versions an object without spec.version (spec.thanos.version for a
// Prometheus's sidecar) runs (--default-versions). An empty field leaves pkg/workload's
// default, Lookout's own.
type Versions struct {
	Prometheus, Alertmanager, Thanos string
}

// OfPrometheus returns p with the default versions written in where p gives none (a copy;
// p itself when nothing is missing). Every later step (configuration, rules, workload)
// then reads the version the pod runs.
func (v Versions) OfPrometheus(p *promserver.Server) *promserver.Server {
	needs := v.Prometheus != "" && p.Spec.Version == ""
	needsThanos := v.Thanos != "" && p.PrometheusOnly().Thanos != nil && ptr.Deref(p.PrometheusOnly().Thanos.Version, "") == ""
	if !needs && !needsThanos {
		return p
	}
	p = p.DeepCopy()
	if needs {
		p.Spec.Version = v.Prometheus
	}
	if needsThanos {
		p.PrometheusOnly().Thanos.Version = ptr.To(v.Thanos)
	}
	return p
}

// OfAlertmanager is OfPrometheus for an Alertmanager.
func (v Versions) OfAlertmanager(a *monitoringv1.Alertmanager) *monitoringv1.Alertmanager {
	if v.Alertmanager == "" || a.Spec.Version != "" {
		return a
	}
	a = a.DeepCopy()
	a.Spec.Version = v.Alertmanager
	return a
}

// OfThanosRuler is OfPrometheus for a ThanosRuler.
func (v Versions) OfThanosRuler(t *monitoringv1.ThanosRuler) *monitoringv1.ThanosRuler {
	if v.Thanos == "" || ptr.Deref(t.Spec.Version, "") != "" {
		return t
	}
	t = t.DeepCopy()
	t.Spec.Version = ptr.To(v.Thanos)
	return t
}
