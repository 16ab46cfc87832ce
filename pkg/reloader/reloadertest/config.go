package reloadertest

import (
	"fmt"
	"strings"
)

// SizedConfig returns a valid Prometheus config of at least size bytes, the way large
// generated configs look: many scrape jobs, each with relabelings that use $(POD_NAME)
// and $(SHARD) (expanded by the reloader) and Prometheus's own $1 (left alone). marker
// goes into an external label, so versions of the same size differ.
func SizedConfig(size int, marker string) string {
	var b strings.Builder
	b.Grow(size + 1024)
	fmt.Fprintf(&b, "global:\n  scrape_interval: 1m\n  external_labels:\n    marker: %s\n    prometheus_replica: $(POD_NAME)\nscrape_configs:\n", marker)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `- job_name: serviceMonitor/ns-%[1]d/app-%[1]d/0
  honor_labels: false
  metrics_path: /metrics
  static_configs:
  - targets: ["10.%[2]d.%[3]d.%[4]d:8080"]
  relabel_configs:
  - source_labels: [__address__]
    target_label: __tmp_hash
    modulus: 4
    action: hashmod
  - source_labels: [__tmp_hash]
    regex: $(SHARD)
    action: keep
  - source_labels: [__meta_kubernetes_pod_name]
    regex: (app-%[1]d-.*)
    target_label: pod
    replacement: $1
`, i, i>>16&255, i>>8&255, i&255)
	}
	return b.String()
}
