package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBigTree writes a tree of one Prometheus, monitors ServiceMonitors and rules
// alerting rules (ten to a PrometheusRule) to dir; the ServiceMonitor numbered changed
// scrapes every 10s instead of 30s (-1: none).
func writeBigTree(t testing.TB, dir string, monitors, rules, changed int) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: main, namespace: monitoring}
spec:
  serviceMonitorSelector: {matchLabels: {team: web}}
  serviceMonitorNamespaceSelector: {}
  ruleSelector: {matchLabels: {team: web}}
  ruleNamespaceSelector: {}
`)
	for i := 0; i < monitors; i++ {
		interval := "30s"
		if i == changed {
			interval = "10s"
		}
		fmt.Fprintf(&b, `---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: svc-%d, namespace: ns-%d, labels: {team: web}}
spec:
  selector: {matchLabels: {app: svc-%d}}
  endpoints:
  - {port: http, interval: %s, path: /metrics}
`, i, i%50, i, interval)
	}
	for i := 0; i < rules; i += 10 {
		fmt.Fprintf(&b, "---\napiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: rules-%d, namespace: ns-%d, labels: {team: web}}\nspec:\n  groups:\n  - name: g-%d\n    rules:\n", i, i%50, i)
		for j := i; j < min(i+10, rules); j++ {
			fmt.Fprintf(&b, "    - {alert: Alert%d, expr: 'up{job=\"svc-%d\"} == 0', for: 5m, labels: {severity: page}}\n", j, j)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tree.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkDiffLargeTrees diffs two trees of 5,000 ServiceMonitors and 1,000 rules that
// differ in one monitor's interval: render both, compare, write the diff.
func BenchmarkDiffLargeTrees(b *testing.B) {
	oldDir, newDir := b.TempDir(), b.TempDir()
	writeBigTree(b, oldDir, 5000, 1000, -1)
	writeBigTree(b, newDir, 5000, 1000, 2500)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := diffCmd([]string{oldDir, newDir}, io.Discard, io.Discard); code != 1 {
			b.Fatalf("exit %d", code)
		}
	}
}

// TestDiffLargeTreesOneHunk: the large trees give exactly the one hunk of the changed
// monitor (a smaller tree, so that the test stays quick).
func TestDiffLargeTreesOneHunk(t *testing.T) {
	oldDir, newDir := t.TempDir(), t.TempDir()
	writeBigTree(t, oldDir, 500, 100, -1)
	writeBigTree(t, newDir, 500, 100, 250)
	out, errs, code := runDiff(oldDir, newDir)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(out, "\n@@ ") != 1 || !strings.Contains(out, "# caused by: serviceMonitor/ns-0/svc-250/0\n") {
		t.Fatalf("output:\n%s", out)
	}
}
