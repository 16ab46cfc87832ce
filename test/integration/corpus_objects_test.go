package integration

import (
	"encoding/base64"
	mrand "math/rand/v2"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Builders of the corpus's objects. Each starts from a valid object and lets a case
// change what it is about.

type (
	SM    = monitoringv1.ServiceMonitor
	PM    = monitoringv1.PodMonitor
	Probe = monitoringv1.Probe
	SC    = monitoringv1alpha1.ScrapeConfig
	Rule  = monitoringv1.PrometheusRule
	Prom  = monitoringv1.Prometheus
)

func newSM(ns, name string, mut func(*SM)) *SM {
	s := &SM{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1.ServiceMonitorSpec{
		Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": "corpus"}},
		Endpoints: []monitoringv1.Endpoint{{Port: "web"}},
	}}
	if mut != nil {
		mut(s)
	}
	return s
}

func newPM(ns, name string, mut func(*PM)) *PM {
	p := &PM{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1.PodMonitorSpec{
		Selector:            metav1.LabelSelector{MatchLabels: map[string]string{"app": "corpus"}},
		PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr.To("web")}},
	}}
	if mut != nil {
		mut(p)
	}
	return p
}

func newProbe(ns, name string, mut func(*Probe)) *Probe {
	p := &Probe{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1.ProbeSpec{
		ProberSpec: monitoringv1.ProberSpec{URL: "blackbox-exporter:9115"}, Module: "http_2xx",
		Targets: monitoringv1.ProbeTargets{StaticConfig: &monitoringv1.ProbeTargetStaticConfig{Targets: []string{"http://app.corpus.example"}}},
	}}
	if mut != nil {
		mut(p)
	}
	return p
}

// newSC is a ScrapeConfig with a static target in TEST-NET-1 (RFC 5737): the real
// Prometheus that loads it runs in a network namespace with loopback only, and the
// address could not go anywhere even if it did not.
func newSC(ns, name string, mut func(*SC)) *SC {
	s := &SC{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1alpha1.ScrapeConfigSpec{
		StaticConfigs: []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{"192.0.2.10:9100"}}},
	}}
	if mut != nil {
		mut(s)
	}
	return s
}

func newCorpusRule(ns, name string, mut func(*Rule)) *Rule {
	r := &Rule{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1.PrometheusRuleSpec{
		Groups: []monitoringv1.RuleGroup{{Name: "corpus", Rules: []monitoringv1.Rule{{
			Alert: "CorpusAlert", Expr: intstr.FromString("up == 0"),
			Labels: map[string]string{"severity": "warning"}, Annotations: map[string]string{"summary": "a target is down"},
		}}}},
	}}
	if mut != nil {
		mut(r)
	}
	return r
}

// profilePrometheus is a profile's Prometheus: it selects every monitor and rule in its
// namespace.
func profilePrometheus(ns, profile string) *Prom {
	all := &metav1.LabelSelector{}
	p := &Prom{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: corpusPrometheus}, Spec: monitoringv1.PrometheusSpec{
		CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector: all, PodMonitorSelector: all, ProbeSelector: all, ScrapeConfigSelector: all,
		},
		RuleSelector: all,
	}}
	switch profile {
	case profLegacy:
		p.Spec.NameValidationScheme = ptr.To(monitoringv1.LegacyNameValidationScheme)
	case profTenant:
		p.Spec.ArbitraryFSAccessThroughSMs.Deny = true
		p.Spec.IgnoreNamespaceSelectors = true
		p.Spec.EnforcedNamespaceLabel = "namespace"
	}
	return p
}

// casePrometheus is the valid version of a Prometheus case: it selects the valid
// ServiceMonitor of the prom profile's namespace.
func casePrometheus(ns, name string) *Prom {
	return &Prom{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: monitoringv1.PrometheusSpec{
		CommonPrometheusFields: monitoringv1.CommonPrometheusFields{
			ServiceMonitorSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"corpus": "good"}},
		},
	}}
}

func goodServiceMonitor(ns, name string) *SM {
	return newSM(ns, name, func(s *SM) { s.Labels = map[string]string{"corpus": "good"} })
}

// goodNames are the valid objects of every profile.
var goodNames = [][2]string{{kSM, "good-sm"}, {kPM, "good-pm"}, {kProbe, "good-probe"}, {kSC, "good-sc"}, {kRule, "good-rule"}}

func goodObjects(ns string) []client.Object {
	return []client.Object{
		goodServiceMonitor(ns, "good-sm"), newPM(ns, "good-pm", nil), newProbe(ns, "good-probe", nil), newSC(ns, "good-sc", nil),
		newCorpusRule(ns, "good-rule", nil),
	}
}

// Case object builders: the case's object, built with its namespace and name.

func sm(mut func(*SM)) objs {
	return func(ns, name string) []client.Object { return []client.Object{newSM(ns, name, mut)} }
}
func pm(mut func(*PM)) objs {
	return func(ns, name string) []client.Object { return []client.Object{newPM(ns, name, mut)} }
}
func probe(mut func(*Probe)) objs {
	return func(ns, name string) []client.Object { return []client.Object{newProbe(ns, name, mut)} }
}
func sc(mut func(*SC)) objs {
	return func(ns, name string) []client.Object { return []client.Object{newSC(ns, name, mut)} }
}
func rule(mut func(*Rule)) objs {
	return func(ns, name string) []client.Object { return []client.Object{newCorpusRule(ns, name, mut)} }
}

// withSecret creates, before the case's object, the Secret <name>-s with data.
func (o objs) withSecret(data map[string]string) objs {
	return func(ns, name string) []client.Object {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name + "-s"}, StringData: data}
		return append([]client.Object{s}, o(ns, name)...)
	}
}

// sk selects key of the case's Secret (<name>-s).
func sk(name, key string) corev1.SecretKeySelector {
	return corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name + "-s"}, Key: key}
}

func skp(name, key string) *corev1.SecretKeySelector { s := sk(name, key); return &s }

// incompressible returns n bytes of base64 from a fixed seed: about six bits of entropy a
// byte, which gzip cannot squeeze below three quarters of its size.
func incompressible(n int) string {
	r := mrand.New(mrand.NewPCG(1, 2))
	b := make([]byte, n*3/4+3)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return base64.StdEncoding.EncodeToString(b)[:n]
}

// longName is a name of exactly n characters starting with prefix.
func longName(prefix string, n int) string {
	return prefix + strings.Repeat("x", n-len(prefix))
}
