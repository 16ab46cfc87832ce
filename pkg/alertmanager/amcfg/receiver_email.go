package amcfg

import (
	"strings"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
)

func (r *resolver) email(in *monitoringv1alpha1.EmailConfig) *obj {
	f := r.f
	r.gates(
		fieldGate{"threading", in.Threading != nil, "0.30.0"},
		fieldGate{"forceImplicitTLS", in.ForceImplicitTLS != nil, "0.31.0"},
	)
	r.check(in.To == nil || *in.To == "", f+".to", "the recipient address must be set")
	pw := r.optSecret(f+".authPassword", in.AuthPassword)
	sec := r.optSecret(f+".authSecret", in.AuthSecret)
	tls := r.tlsConfig(f+".tlsConfig", in.TLSConfig)
	out := (&obj{}).set("send_resolved", in.SendResolved)
	out.set("to", in.To).set("from", in.From).set("hello", in.Hello).set("smarthost", in.Smarthost)
	out.set("auth_username", in.AuthUsername).set("auth_password", pw).set("auth_secret", sec).set("auth_identity", in.AuthIdentity)
	out.set("headers", kvMap(in.Headers)).set("html", in.HTML).set("text", in.Text).set("require_tls", in.RequireTLS)
	out.set("tls_config", tls).set("force_implicit_tls", in.ForceImplicitTLS)
	if in.Threading != nil {
		out.set("threading", (&obj{}).put2b("enabled", true).set("thread_by_date", strings.ToLower(string(in.Threading.ThreadByDate))))
	}
	return out
}

// put2b sets a boolean even when false.
func (o *obj) put2b(key string, v bool) *obj {
	o.put(key, v)
	return o
}
