package promcfg_test

import (
	"encoding/json"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/promcfg"
)

// FuzzGenerate feeds arbitrary ServiceMonitor and PodMonitor specs (as JSON, the way they
// arrive from the API server) to the generator: it must never panic, and whatever it
// accepts must load with Prometheus's own loader.
func FuzzGenerate(f *testing.F) {
	for _, c := range goldenCases() {
		for _, s := range c.sms {
			b, _ := json.Marshal(s.Spec)
			f.Add(b, []byte("{}"), c.prom.Spec.Version)
		}
		for _, p := range c.pms {
			b, _ := json.Marshal(p.Spec)
			f.Add([]byte("{}"), b, c.prom.Spec.Version)
		}
	}
	f.Fuzz(func(t *testing.T, smJSON, pmJSON []byte, version string) {
		s := sm("fuzz")
		if err := json.Unmarshal(smJSON, &s.Spec); err != nil {
			return
		}
		p := pm("fuzz")
		if err := json.Unmarshal(pmJSON, &p.Spec); err != nil {
			return
		}
		pr := prom(func(p *monitoringv1.Prometheus) { p.Spec.Version = version; p.Spec.Shards = ptr(int32(2)) })
		res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: pr, ServiceMonitors: []*SM{s}, PodMonitors: []*PM{p}, Assets: testAssets()})
		if err != nil {
			return // a Prometheus-level error (for instance the fuzzed version string)
		}
		if err := promcfg.Validate(res.Config); err != nil {
			t.Fatalf("accepted monitors produced a config Prometheus rejects: %v\n%s", err, res.Config)
		}
	})
}
