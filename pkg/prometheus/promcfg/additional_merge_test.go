package promcfg_test

import (
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestAdditionalScrapeConfigsMergeKeys: anchors, aliases and YAML merge keys in
// additionalScrapeConfigs are accepted, as prometheus-operator accepts them (issue 33):
// the merged keys come in, a key of the job itself wins, and of several merged mappings
// the first wins. A merge key naming a scalar is refused with its line.
func TestAdditionalScrapeConfigsMergeKeys(t *testing.T) {
	t.Parallel()
	scrape := `- &base
  job_name: base
  scrape_interval: 45s
  scrape_timeout: 20s
  static_configs:
  - targets: ["a:9090"]
- <<: *base
  job_name: merged
  scrape_timeout: 10s
- <<: [{metrics_path: /first, job_name: ignored}, {metrics_path: /second, honor_labels: true}]
  job_name: several
  static_configs:
  - targets: ["b:9090"]
`
	a := layered{testAssets(), staticSecret("monitoring", "additional", "1", map[string][]byte{"scrape.yaml": []byte(scrape)})}
	p := prom(func(p *P) { p.Spec.AdditionalScrapeConfigs = ptr(secretKey("additional", "scrape.yaml")) })
	res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Assets: a})
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(res.Config)
	for _, want := range []string{
		// The merged keys where "<<" stands, without those the job sets itself.
		"- scrape_interval: 45s\n  static_configs:\n  - targets:\n    - a:9090\n  job_name: merged\n  scrape_timeout: 10s\n",
		"- metrics_path: /first\n  honor_labels: true\n  job_name: several\n  static_configs:\n  - targets:\n    - b:9090\n",
	} {
		if !strings.Contains(cfg, want) {
			t.Errorf("config lacks\n%s\nin\n%s", want, cfg)
		}
	}

	bad := layered{testAssets(), staticSecret("monitoring", "additional", "1", map[string][]byte{"scrape.yaml": []byte("- job_name: x\n  <<: 3\n")})}
	if _, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(p), Assets: bad}); err == nil ||
		!strings.Contains(err.Error(), "line 2: a YAML merge key takes a mapping or a list of mappings, got a scalar") {
		t.Errorf("merge key of a scalar: %v", err)
	}
}
