package confdiff

import (
	"fmt"
	"strings"
	"testing"
)

// bigConfig is a prometheus.yaml of n jobs shaped like the operator's (about 50 lines
// each); job changed scrapes every 10s.
func bigConfig(n, changed int) []byte {
	var b strings.Builder
	b.WriteString("global:\n  scrape_interval: 30s\nscrape_configs:\n")
	for i := 0; i < n; i++ {
		interval := "30s"
		if i == changed {
			interval = "10s"
		}
		fmt.Fprintf(&b, "- job_name: serviceMonitor/ns-%d/svc-%d/0\n  scrape_interval: %s\n  honor_labels: false\n  kubernetes_sd_configs:\n  - role: endpoints\n    namespaces:\n      names: [ns-%d]\n  relabel_configs:\n", i%50, i, interval, i%50)
		for r := 0; r < 10; r++ {
			fmt.Fprintf(&b, "  - source_labels: [__meta_kubernetes_service_label_app_%d]\n    regex: svc-%d\n    action: keep\n", r, i)
		}
	}
	return []byte(b.String())
}

// BenchmarkCompareOneChangedJob compares two configurations of 5,000 jobs that differ in
// one job's interval.
func BenchmarkCompareOneChangedJob(b *testing.B) {
	old, new := bigConfig(5000, -1), bigConfig(5000, 2500)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Compare(prom(string(old)), prom(string(new)))
		if err != nil || len(r.Instances) != 1 || len(r.Instances[0].Files[0].Hunks) != 1 {
			b.Fatalf("%v %+v", err, r)
		}
	}
}
