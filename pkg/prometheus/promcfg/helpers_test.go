package promcfg_test

import (
	"fmt"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// Builders keep the test tables short: each case names only what it changes.

func prom(mut ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: "k8s", Namespace: "monitoring"}}
	for _, m := range mut {
		m(p)
	}
	return p
}

func sm(name string, mut ...func(*monitoringv1.ServiceMonitor)) *monitoringv1.ServiceMonitor {
	s := &monitoringv1.ServiceMonitor{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1, ResourceVersion: "1"},
		Spec: monitoringv1.ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Endpoints: []monitoringv1.Endpoint{{Port: "web"}},
		},
	}
	for _, m := range mut {
		m(s)
	}
	return s
}

func pm(name string, mut ...func(*monitoringv1.PodMonitor)) *monitoringv1.PodMonitor {
	p := &monitoringv1.PodMonitor{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1},
		Spec: monitoringv1.PodMonitorSpec{
			Selector:            metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			PodMetricsEndpoints: []monitoringv1.PodMetricsEndpoint{{Port: ptr("metrics")}},
		},
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func probe(name string, mut ...func(*monitoringv1.Probe)) *monitoringv1.Probe {
	p := &monitoringv1.Probe{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1},
		Spec: monitoringv1.ProbeSpec{
			ProberSpec: monitoringv1.ProberSpec{URL: "blackbox-exporter.monitoring.svc:9115"},
			Module:     "http_2xx",
			Targets:    monitoringv1.ProbeTargets{StaticConfig: &monitoringv1.ProbeTargetStaticConfig{Targets: []string{"https://example.com", "https://example.org/health"}}},
		},
	}
	for _, m := range mut {
		m(p)
	}
	return p
}

func scrapeConfig(name string, mut ...func(*monitoringv1alpha1.ScrapeConfig)) *monitoringv1alpha1.ScrapeConfig {
	s := &monitoringv1alpha1.ScrapeConfig{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name), Generation: 1}}
	for _, m := range mut {
		m(s)
	}
	return s
}

// ep edits the first endpoint of a ServiceMonitor.
func ep(f func(*monitoringv1.Endpoint)) func(*monitoringv1.ServiceMonitor) {
	return func(s *monitoringv1.ServiceMonitor) { f(&s.Spec.Endpoints[0]) }
}

// pep edits the first endpoint of a PodMonitor.
func pep(f func(*monitoringv1.PodMetricsEndpoint)) func(*monitoringv1.PodMonitor) {
	return func(p *monitoringv1.PodMonitor) { f(&p.Spec.PodMetricsEndpoints[0]) }
}

func ptr[T any](v T) *T { return &v }

func secretKey(name, key string) corev1.SecretKeySelector {
	return corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}

func cmKey(name, key string) corev1.ConfigMapKeySelector {
	return corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: name}, Key: key}
}

func secretRef(name, key string) *monitoringv1.SecretOrConfigMap {
	s := secretKey(name, key)
	return &monitoringv1.SecretOrConfigMap{Secret: &s}
}

func rl(action string, src []string, regex, target, replacement string) monitoringv1.RelabelConfig {
	r := monitoringv1.RelabelConfig{Action: action, Regex: regex, TargetLabel: target}
	for _, s := range src {
		r.SourceLabels = append(r.SourceLabels, monitoringv1.LabelName(s))
	}
	if replacement != "" {
		r.Replacement = ptr(replacement)
	}
	return r
}

func intOrStr(s string) *intstr.IntOrString { v := intstr.Parse(s); return &v }

func qty(s string) *resource.Quantity { q := resource.MustParse(s); return &q }

// testAssets serves the Secrets and ConfigMaps every case may reference, in the
// namespaces "default" and "monitoring".
func testAssets() promcfg.Assets {
	var secrets []*corev1.Secret
	var cms []*corev1.ConfigMap
	for _, ns := range []string{"default", "monitoring"} {
		secrets = append(secrets,
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "auth", Namespace: ns, ResourceVersion: "1"}, Data: map[string][]byte{
				"user": []byte("alice"), "password": []byte("s3cret"), "token": []byte("tok-" + ns),
				"client-id": []byte("client"), "client-secret": []byte("client-secret"),
				"access": []byte("AKIA"), "secret": []byte("aws-secret"), "header": []byte("Basic abc"),
				"scaleway-secret": []byte("d1d2d3d4-e5e6-4f70-8a9b-0c1d2e3f4a5b"),
			}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "tls", Namespace: ns, ResourceVersion: "1"}, Data: map[string][]byte{
				"ca.crt":  []byte(testCA),
				"tls.crt": []byte(testCert),
				"tls.key": []byte(testKey),
			}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "additional", Namespace: ns, ResourceVersion: "1"}, Data: map[string][]byte{
				"scrape.yaml": []byte(strings.TrimSpace(`
- job_name: external-node
  static_configs:
  - targets: ["10.0.0.1:9100", "10.0.0.2:9100"]
    labels:
      team: infra
  relabel_configs:
  - source_labels: [__address__]
    target_label: instance
- job_name: blackbox
  metrics_path: /probe
  params:
    module: [http_2xx]
  scrape_interval: 1m
  static_configs:
  - targets: ["example.com"]
`)),
				"alert-relabel.yaml":    []byte("- action: drop\n  source_labels: [severity]\n  regex: none\n"),
				"alertmanagers.yaml":    []byte("- static_configs:\n  - targets: [\"am.example.com:9093\"]\n  scheme: https\n"),
				"self-sharded.yaml":     []byte("- job_name: self-sharded\n  static_configs:\n  - targets: [\"10.0.0.1:9100\"]\n  relabel_configs:\n  - source_labels: [__address__]\n    modulus: 4\n    target_label: __tmp_hash\n    action: hashmod\n  - source_labels: [__tmp_hash]\n    regex: $(SHARD)\n    action: keep\n"),
				"alertmanagers-v1.yaml": []byte("- api_version: v1\n  static_configs:\n  - targets: [\"am.example.com:9093\"]\n"),
				"broken.yaml":           []byte("- job_name: [\n"),
				"not-a-list.yaml":       []byte("job_name: x\n"),
				"invalid-job.yaml":      []byte("- job_name: bad\n  scrape_interval: forever\n"),
				"utf8-relabel.yaml":     []byte("- target_label: team.name\n  replacement: infra\n"),
				"utf8-labels.yaml":      []byte("- job_name: utf8\n  static_configs:\n  - targets: [\"a:1\"]\n    labels:\n      team.name: infra\n"),
			}},
		)
		cms = append(cms, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "ca", Namespace: ns, ResourceVersion: "1"}, Data: map[string]string{
			"ca.crt": testConfigMapCA, "client-id": "cm-client",
		}})
	}
	return assets.NewStatic(secrets, cms)
}

// generate runs a fresh generator.
func generate(p *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor, pms []*monitoringv1.PodMonitor) (*promcfg.Result, error) {
	return generateAll(goldenCase{prom: p, sms: sms, pms: pms})
}

func generateAll(c goldenCase) (*promcfg.Result, error) {
	g := promcfg.NewGenerator()
	g.PodZoneLabels = c.podZoneLabels
	return g.Generate(promcfg.Input{
		Prometheus: serverOf(c.prom), Monitors: monitorkind.Set{ServiceMonitors: c.sms, PodMonitors: c.pms, Probes: c.probes, ScrapeConfigs: c.scs}, Assets: testAssets(),
		RuleFiles: []string{"/etc/prometheus/rules/prometheus-k8s-rulefiles-0/*.yaml"},
	})
}

func verdictsString(r *promcfg.Result) string {
	var b strings.Builder
	for _, v := range r.Verdicts {
		fmt.Fprintf(&b, "%s %s/%s: %s %s\n", v.Kind, v.Namespace, v.Name, v.Reason, v.Message)
	}
	return b.String()
}

// clashAssets adds an additional scrape config reusing a generated job name.
func clashAssets() promcfg.Assets {
	base := testAssets().(*assets.Static)
	return layered{base, assets.NewStatic([]*corev1.Secret{{
		ObjectMeta: metav1.ObjectMeta{Name: "additional", Namespace: "monitoring", ResourceVersion: "2"},
		Data:       map[string][]byte{"clash.yaml": []byte("- job_name: serviceMonitor/default/bad/0\n  static_configs:\n  - targets: [a:1]\n")},
	}}, nil)}
}

// layered serves from top first, then base.
type layered struct{ base, top promcfg.Assets }

func (l layered) Get(ref promcfg.AssetRef) ([]byte, error) {
	if v, err := l.top.Get(ref); err == nil {
		return v, nil
	}
	return l.base.Get(ref)
}

func (l layered) Version(k promcfg.AssetKind, ns, name string) string {
	return l.top.Version(k, ns, name) + l.base.Version(k, ns, name)
}

func generateWith(p *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor, pms []*monitoringv1.PodMonitor, a promcfg.Assets) (*promcfg.Result, error) {
	return promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: sms, PodMonitors: pms}, Assets: a})
}

func promcfgValidate(cfg []byte) error { return promcfg.Validate(cfg) }

func staticSecret(ns, name, rv string, data map[string][]byte) promcfg.Assets {
	return assets.NewStatic([]*corev1.Secret{{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, ResourceVersion: rv}, Data: data}}, nil)
}

// generateBeside generates in with g and with a fresh generator, the reference a warm or
// pieces-mode generator must match.
func generateBeside(t *testing.T, g *promcfg.Generator, in promcfg.Input) (got, fresh *promcfg.Result) {
	t.Helper()
	got, err := g.Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err = promcfg.NewGenerator().Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	return got, fresh
}
