package versions

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Lookout's defaults: the versions Lookout is tested with, run by an object without
// spec.version under --default-versions=lookout, and assumed by every builder and
// generator when a version is still empty.
const (
	// DefaultPrometheus is the Prometheus version assumed when spec.version is empty; it
	// is also the version of the Prometheus libraries Lookout is built with.
	DefaultPrometheus = "v3.16.0"
	// DefaultAlertmanager is the Alertmanager version assumed when spec.version is empty.
	DefaultAlertmanager = "v0.33.1"
	// DefaultThanos is the Thanos version of a ThanosRuler or a Prometheus's sidecar when
	// spec.version (spec.thanos.version) is empty.
	DefaultThanos = "v0.42.4"
)

// The versions prometheus-operator v0.93 runs when an object gives none
// (pkg/operator/defaults.go there: DefaultPrometheusVersion, the last entry of its
// compatibility matrix, DefaultAlertmanagerVersion, DefaultThanosVersion).
const (
	UpstreamPrometheus   = "v3.13.1"
	UpstreamAlertmanager = "v0.33.1"
	UpstreamThanos       = "v0.42.2"
)

// The values of --default-versions.
const (
	// SetUpstream runs prometheus-operator v0.93's versions, so that an object without a
	// version keeps its image when Lookout replaces prometheus-operator.
	SetUpstream = "upstream"
	// SetLookout runs the newer versions Lookout is tested with (DefaultPrometheus and
	// friends).
	SetLookout = "lookout"
)

// Defaults are the versions an object without spec.version (spec.thanos.version for a
// Prometheus's sidecar) runs (--default-versions). An empty field leaves Lookout's
// default.
type Defaults struct {
	Prometheus, Alertmanager, Thanos string
}

// For are the versions --default-versions=set selects.
func For(set string) Defaults {
	if set == SetLookout {
		return Defaults{}
	}
	return Defaults{Prometheus: UpstreamPrometheus, Alertmanager: UpstreamAlertmanager, Thanos: UpstreamThanos}
}

// OfPrometheus returns p with the default versions written in where p gives none (a copy;
// p itself when nothing is missing). Every later step (configuration, rules, workload)
// then reads the version the pod runs.
func (d Defaults) OfPrometheus(p *promserver.Server) *promserver.Server {
	type P = *promserver.Server
	return fill(p, P.DeepCopy,
		field[P]{d.Prometheus,
			func(p P) bool { return p.Spec.Version == "" },
			func(p P, v string) { p.Spec.Version = v }},
		field[P]{d.Thanos,
			func(p P) bool { t := p.PrometheusOnly().Thanos; return t != nil && ptr.Deref(t.Version, "") == "" },
			func(p P, v string) { p.PrometheusOnly().Thanos.Version = ptr.To(v) }})
}

// OfAlertmanager is OfPrometheus for an Alertmanager.
func (d Defaults) OfAlertmanager(a *monitoringv1.Alertmanager) *monitoringv1.Alertmanager {
	type A = *monitoringv1.Alertmanager
	return fill(a, A.DeepCopy,
		field[A]{d.Alertmanager,
			func(a A) bool { return a.Spec.Version == "" },
			func(a A, v string) { a.Spec.Version = v }})
}

// OfThanosRuler is OfPrometheus for a ThanosRuler.
func (d Defaults) OfThanosRuler(t *monitoringv1.ThanosRuler) *monitoringv1.ThanosRuler {
	type T = *monitoringv1.ThanosRuler
	return fill(t, T.DeepCopy,
		field[T]{d.Thanos,
			func(t T) bool { return ptr.Deref(t.Spec.Version, "") == "" },
			func(t T, v string) { t.Spec.Version = ptr.To(v) }})
}

// field is one version field of objects of type T: the default it gets (empty: none),
// whether an object lacks a value, and how to write one in.
type field[T any] struct {
	def     string
	missing func(T) bool
	set     func(T, string)
}

// fill writes each field's default into a copy of obj where the field lacks a value, and
// returns obj itself when no field needs one.
func fill[T any](obj T, deepCopy func(T) T, fields ...field[T]) T {
	var missing []field[T]
	for _, f := range fields {
		if f.def != "" && f.missing(obj) {
			missing = append(missing, f)
		}
	}
	if len(missing) == 0 {
		return obj
	}
	obj = deepCopy(obj)
	for _, f := range missing {
		f.set(obj, f.def)
	}
	return obj
}
