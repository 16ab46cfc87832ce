package amcfg

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
)

// resolver runs the checks and reference look-ups of one config (at field f) in order and
// keeps the first problem: once p is set the later steps do nothing and return zero
// values, so a converter makes its steps one after the other and looks at p once, before
// it uses what they returned. The problem reported is the one the first failing step
// found, as when each step returned on its own.
type resolver struct {
	c *conv
	f string
	p *problem
}

func (c *conv) resolver(f string) *resolver { return &resolver{c: c, f: f} }

// ok reports whether no step has failed yet.
func (r *resolver) ok() bool { return r.p == nil }

// fail records p unless a problem came before.
func (r *resolver) fail(p *problem) {
	if r.p == nil {
		r.p = p
	}
}

// check records a problem at field when bad is true.
func (r *resolver) check(bad bool, field, format string, args ...any) {
	if bad && r.ok() {
		r.p = invalid(field, format, args...)
	}
}

// gates checks each named field of the config that is set against the version it needs.
func (r *resolver) gates(fs ...fieldGate) {
	for _, g := range fs {
		if g.set && r.ok() {
			r.p = r.c.gate(r.f+"."+g.name, g.name, g.min)
		}
	}
}

// gate checks a feature against the version it needs.
func (r *resolver) gate(field, what, min string) {
	if r.ok() {
		r.p = r.c.gate(field, what, min)
	}
}

// common starts the output of an integration with send_resolved and http_config, which
// every integration has.
func (r *resolver) common(sendResolved *bool, hc *monitoringv1alpha1.HTTPConfig) *obj {
	out := (&obj{}).set("send_resolved", sendResolved)
	out.set("http_config", r.httpConfig(r.f+".httpConfig", hc))
	return out
}

func (r *resolver) secret(field string, sel corev1.SecretKeySelector) string {
	return resolved(r, func() (string, *problem) { return r.c.secret(field, sel) })
}

func (r *resolver) optSecret(field string, sel *corev1.SecretKeySelector) string {
	return resolved(r, func() (string, *problem) { return r.c.optSecret(field, sel) })
}

func (r *resolver) secretURL(field string, sel *corev1.SecretKeySelector) string {
	return resolved(r, func() (string, *problem) { return r.c.secretURL(field, sel) })
}

// url checks a URL given in the spec.
func (r *resolver) url(field string, s *string) string {
	return resolved(r, func() (string, *problem) { return plainURL(field, s) })
}

func (r *resolver) containerFile(field string, file *string) {
	if r.ok() {
		r.p = r.c.containerFile(field, file)
	}
}

func (r *resolver) tlsConfig(field string, in *monitoringv1.SafeTLSConfig) *obj {
	return resolved(r, func() (*obj, *problem) { return r.c.tlsConfig(field, in) })
}

func (r *resolver) httpConfig(field string, in *monitoringv1alpha1.HTTPConfig) *obj {
	return resolved(r, func() (*obj, *problem) { return r.c.httpConfig(field, in) })
}

// resolved runs step unless r has failed and records its problem.
func resolved[T any](r *resolver, step func() (T, *problem)) T {
	var v T
	if r.ok() {
		v, r.p = step()
	}
	return v
}

// strp converts a pointer to a string type (URL, Duration) to *string.
func strp[T ~string](p *T) *string {
	if p == nil {
		return nil
	}
	s := string(*p)
	return &s
}
