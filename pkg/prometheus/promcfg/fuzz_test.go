package promcfg_test

import (
	"encoding/json"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// FuzzGenerate feeds arbitrary ServiceMonitor, PodMonitor, Probe and ScrapeConfig specs
// (as JSON, the way they arrive from the API server) to the generator: it must never panic,
// and whatever it accepts must load with Prometheus's own loader.
func FuzzGenerate(f *testing.F) {
	empty := []byte("{}")
	for _, c := range goldenCases() {
		for _, s := range c.sms {
			b, _ := json.Marshal(s.Spec)
			f.Add(b, empty, empty, empty, c.prom.Spec.Version)
		}
		for _, p := range c.pms {
			b, _ := json.Marshal(p.Spec)
			f.Add(empty, b, empty, empty, c.prom.Spec.Version)
		}
		for _, p := range c.probes {
			b, _ := json.Marshal(p.Spec)
			f.Add(empty, empty, b, empty, c.prom.Spec.Version)
		}
		for _, s := range c.scs {
			b, _ := json.Marshal(s.Spec)
			f.Add(empty, empty, empty, b, c.prom.Spec.Version)
		}
	}
	f.Fuzz(func(t *testing.T, smJSON, pmJSON, probeJSON, scJSON []byte, version string) {
		s := sm("fuzz")
		if err := json.Unmarshal(smJSON, &s.Spec); err != nil {
			return
		}
		p := pm("fuzz")
		if err := json.Unmarshal(pmJSON, &p.Spec); err != nil {
			return
		}
		pb := probe("fuzz")
		if err := json.Unmarshal(probeJSON, &pb.Spec); err != nil {
			return
		}
		scfg := scrapeConfig("fuzz")
		if err := json.Unmarshal(scJSON, &scfg.Spec); err != nil {
			return
		}
		pr := prom(func(p *monitoringv1.Prometheus) { p.Spec.Version = version; p.Spec.Shards = ptr(int32(2)) })
		res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(pr), Monitors: monitorkind.Set{ServiceMonitors: []*SM{s}, PodMonitors: []*PM{p}, Probes: []*monitoringv1.Probe{pb}, ScrapeConfigs: []*monitoringv1alpha1.ScrapeConfig{scfg}}, Assets: testAssets()})
		if err != nil {
			return // a Prometheus-level error (for instance the fuzzed version string)
		}
		if err := promcfg.Validate(res.Config); err != nil {
			t.Fatalf("accepted monitors produced a config Prometheus rejects: %v\n%s", err, res.Config)
		}
	})
}
