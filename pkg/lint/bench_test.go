package lint

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// benchManifests generates monitors ServiceMonitors, each with its Service, in 50
// namespaces, every relabeled-th of them with a relabeling, and rules alerting and
// recording rules in PrometheusRules of 10 rules, all selected by one Prometheus.
func benchManifests(monitors, rules, relabeled int) []byte {
	var b strings.Builder
	b.WriteString(prometheus("  scrapeInterval: 30s\n"))
	for i := range monitors {
		ns := fmt.Sprintf("team-%d", i%50)
		fmt.Fprintf(&b, `---
apiVersion: v1
kind: Service
metadata: {name: svc-%[1]d, namespace: %[2]s, labels: {app: app-%[1]d}}
spec:
  selector: {app: app-%[1]d}
  ports: [{name: metrics, port: 8080}]
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: sm-%[1]d, namespace: %[2]s}
spec:
  selector: {matchLabels: {app: app-%[1]d}}
  endpoints:
  - port: metrics
    interval: 30s
`, i, ns)
		if relabeled > 0 && i%relabeled == 0 {
			b.WriteString("    relabelings:\n    - {action: drop, sourceLabels: [__meta_kubernetes_pod_label_canary], regex: \"true\"}\n")
		}
	}
	for i := range rules / 10 {
		fmt.Fprintf(&b, "---\n%s", promRule(fmt.Sprintf("team-%d", i%50), fmt.Sprintf("rules-%d", i), ""))
		for j := range 10 {
			if j%2 == 0 {
				fmt.Fprintf(&b, "    - record: job:http_requests_%d_%d:rate5m\n      expr: sum by (job) (rate(http_requests_total{code=~\"5..\"}[5m]))\n", i, j)
			} else {
				b.WriteString(alert(fmt.Sprintf("HighErrors%d_%d", i, j), `rate(errors_total[1m]) > 10`, "      for: 10m\n"))
			}
		}
	}
	return []byte(b.String())
}

// BenchmarkLint lints 5,000 ServiceMonitors with their Services and 1,000 rules, 1 in
// 100 monitors with a relabeling (which monitor-relabel-drops-all follows with explain),
// decoding included. heap-MB is the live heap after a run.
func BenchmarkLint(b *testing.B) {
	klog.SetLogger(logr.Discard()) // discovery's informers report their ends through klog
	data := benchManifests(5000, 1000, benchRelabeled)
	b.ReportAllocs()
	b.ResetTimer()
	var res *Result
	for range b.N {
		objs, err := manifest.Decode(data, "bench.yaml")
		if err != nil {
			b.Fatal(err)
		}
		if res, err = Lint(objs, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MB")
	b.ReportMetric(float64(len(res.Findings)), "findings")
	runtime.KeepAlive(res)
}

// TestBenchManifestsFindings checks the benchmark's input makes the findings it is
// built to make: one short range per alert (500), nothing else.
func TestBenchManifestsFindings(t *testing.T) {
	objs, err := manifest.Decode(benchManifests(200, 100, 0), "bench.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Lint(objs, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := checksOf(res); len(res.Findings) != 50 || strings.Trim(strings.ReplaceAll(got, "rule-short-range", ""), ",") != "" {
		t.Errorf("%d findings (%s), want 50 rule-short-range", len(res.Findings), got)
	}
}

// benchRelabeled: 1 in benchRelabeled monitors has a relabeling (0: none).
var benchRelabeled = 100
