package promctrl

import (
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// TestDefaultVersions: a Prometheus without spec.version (and its Thanos sidecar without
// spec.thanos.version) runs the versions the operator's --default-versions gives (issue
// 33: prometheus-operator's, so a bare object keeps its image on the swap); versions the
// object gives win; without defaults, pkg/workload's apply.
func TestDefaultVersions(t *testing.T) {
	images := func(f *fixture, name string) map[string]string {
		t.Helper()
		ss := &appsv1.StatefulSet{}
		f.get(ss, "mon", "prometheus-"+name)
		out := map[string]string{}
		for _, c := range ss.Spec.Template.Spec.Containers {
			out[c.Name] = c.Image
		}
		return out
	}
	sidecar := func(p *monitoringv1.Prometheus) { p.Spec.Thanos = &monitoringv1.ThanosSpec{} }
	upstream := versions.Defaults{Prometheus: "v3.13.1", Alertmanager: "v0.33.1", Thanos: "v0.42.2"}
	for _, c := range []struct {
		name                 string
		versions             versions.Defaults
		mut                  func(*monitoringv1.Prometheus)
		prometheus, thanosSC string
	}{
		{"bare", upstream, sidecar, "quay.io/prometheus/prometheus:v3.13.1", "quay.io/thanos/thanos:v0.42.2"},
		{"given", upstream, func(p *monitoringv1.Prometheus) {
			p.Spec.Version = "v3.5.0"
			p.Spec.Thanos = &monitoringv1.ThanosSpec{Version: ptr.To("v0.40.0")}
		}, "quay.io/prometheus/prometheus:v3.5.0", "quay.io/thanos/thanos:v0.40.0"},
		{"lookout", versions.Defaults{}, sidecar, "quay.io/prometheus/prometheus:" + versions.DefaultPrometheus, "quay.io/thanos/thanos:" + versions.DefaultThanos},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{}
			cfg.DefaultVersions = c.versions
			f := newFixture(t, cfg, prom("p", c.mut), serviceMonitor("web"))
			if err := f.reconcile("mon", "p"); err != nil {
				t.Fatal(err)
			}
			got := images(f, "p")
			if got["prometheus"] != c.prometheus || got["thanos-sidecar"] != c.thanosSC {
				t.Errorf("images %v, want prometheus %s, thanos-sidecar %s", got, c.prometheus, c.thanosSC)
			}
			live := &monitoringv1.Prometheus{}
			f.get(live, "mon", "p")
			if c.name == "bare" && live.Spec.Version != "" {
				t.Errorf("spec.version written to the object: %q", live.Spec.Version)
			}
		})
	}
}
