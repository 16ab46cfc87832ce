package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/costtop"
	"github.com/lookout-operator/lookout/pkg/manifest"
)

// monitorWithLimit is a ServiceMonitor app/NAME selecting app=web, with spec lines.
func monitorWithLimit(name, extra string) string {
	return fmt.Sprintf(`apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: {name: %s, namespace: app}
spec:
  selector: {matchLabels: {app: web}}
  endpoints: [{port: web}]
%s`, name, extra)
}

// liveRun lints files over the cluster with the measurement rep (nil: none), with only
// the named checks.
func liveRun(t *testing.T, cluster, files string, rep *costtop.Report, checks ...string) *Result {
	t.Helper()
	cl, err := manifest.Decode([]byte(cluster), "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range cl {
		cl[i].Source, cl[i].File, cl[i].Line = "cluster", "", 0
	}
	var fs []manifest.Object
	if files != "" {
		if fs, err = manifest.Decode([]byte(files), "pr.yaml"); err != nil {
			t.Fatal(err)
		}
	}
	var measure func() (*costtop.Report, error)
	if rep != nil {
		measure = func() (*costtop.Report, error) { return rep, nil }
	}
	res, err := Lint(fs, nil, Options{Enable: checks, Live: &Live{Cluster: cl, Measure: measure}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// measured is a report of Prometheus mon/k8s: each monitor app/NAME's busiest target.
func measured(busiest map[string]int64) *costtop.Report {
	p := costtop.PrometheusReport{Namespace: "mon", Name: "k8s", Shards: 1}
	for name, n := range busiest {
		p.Monitors = append(p.Monitors, costtop.Row{Kind: "ServiceMonitor", Namespace: "app", Name: name,
			Figures: costtop.Figures{Samples: 3 * n, MaxTargetSamples: n, Targets: 3}})
	}
	return &costtop.Report{Prometheuses: []costtop.PrometheusReport{p}}
}

func TestSampleLimitExceeded(t *testing.T) {
	limit := func(n int) string { return fmt.Sprintf("  sampleLimit: %d\n", n) }
	cluster := docs(prometheus(""), serviceYAML("web", "web"),
		monitorWithLimit("over", limit(1000)), monitorWithLimit("near", limit(1000)),
		monitorWithLimit("at80", limit(1000)), monitorWithLimit("nolimit", ""),
		monitorWithLimit("exact", limit(1000)))
	rep := measured(map[string]int64{"over": 1200, "near": 850, "at80": 800, "nolimit": 50000, "exact": 1000})
	res := liveRun(t, cluster, "", rep, sampleLimitCheck)
	got := map[string]Finding{}
	for _, f := range res.Findings {
		got[f.Name] = f
	}
	if len(got) != 3 {
		t.Fatalf("findings %+v, want over (error), near and exact (warnings)", res.Findings)
	}
	if f := got["exact"]; f.Severity != Warning || !strings.Contains(f.Message, "100% of sampleLimit") {
		t.Errorf("exact (at the limit, not over it): %+v", f)
	}
	if f := got["over"]; f.Severity != Error || !strings.Contains(f.Message, "1,200 samples") || !strings.Contains(f.Message, "more than sampleLimit 1,000") {
		t.Errorf("over: %+v", f)
	}
	if f := got["near"]; f.Severity != Warning || !strings.Contains(f.Message, "85% of sampleLimit 1,000") {
		t.Errorf("near: %+v", f)
	}
	if len(res.Notes) != 0 {
		t.Errorf("notes %v", res.Notes)
	}

	// The Prometheus's enforcedSampleLimit caps the monitor's.
	cluster = docs(prometheus("  enforcedSampleLimit: 500\n"), serviceYAML("web", "web"), monitorWithLimit("capped", limit(1000)))
	res = liveRun(t, cluster, "", measured(map[string]int64{"capped": 600}), sampleLimitCheck)
	if len(res.Findings) != 1 || res.Findings[0].Severity != Error || !strings.Contains(res.Findings[0].Message, "enforcedSampleLimit 500") {
		t.Errorf("enforced: %+v", res.Findings)
	}

	// Offline (no measurement): nothing.
	if res := liveRun(t, cluster, "", nil, sampleLimitCheck); len(res.Findings) != 0 {
		t.Errorf("without a measurement: %+v", res.Findings)
	}
}

// TestSampleLimitFiles: a file's monitor replaces the cluster's (its higher limit
// judged against today's figures); a monitor only in the files is not judged; a
// Prometheus that could not be measured is a note.
func TestSampleLimitFiles(t *testing.T) {
	cluster := docs(prometheus(""), serviceYAML("web", "web"), monitorWithLimit("raised", "  sampleLimit: 1000\n"))
	files := docs(monitorWithLimit("raised", "  sampleLimit: 2000\n"), monitorWithLimit("new", "  sampleLimit: 10\n"))
	rep := measured(map[string]int64{"raised": 1200, "new": 5000})
	rep.Prometheuses = append(rep.Prometheuses, costtop.PrometheusReport{Namespace: "mon", Name: "down", Error: "shard 0: no ready pod"})
	res := liveRun(t, cluster, files, rep, sampleLimitCheck)
	if len(res.Findings) != 0 {
		t.Errorf("findings %+v, want none", res.Findings)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "Prometheus mon/down not measured") {
		t.Errorf("notes %v", res.Notes)
	}
	// The same file lowering the limit is judged.
	res = liveRun(t, cluster, monitorWithLimit("raised", "  sampleLimit: 1100\n"), rep, sampleLimitCheck)
	if len(res.Findings) != 1 || res.Findings[0].File != "pr.yaml" || res.Findings[0].Severity != Error {
		t.Errorf("findings %+v, want the file's monitor over its limit", res.Findings)
	}
}

// TestLiveFilesOverCluster: a file's monitor is judged against the cluster's Services;
// findings on objects only in the cluster are counted, not reported; without files
// they are reported.
func TestLiveFilesOverCluster(t *testing.T) {
	cluster := docs(prometheus(""), serviceYAML("web", "web"), strings.Replace(monitorWithLimit("broken", ""), "app: web", "app: gone", 1))
	files := docs(monitorWithLimit("good", ""), strings.Replace(monitorWithLimit("typo", ""), "app: web", "app: wbe", 1))
	res := liveRun(t, cluster, files, nil, "monitor-selector-no-match")
	if len(res.Findings) != 1 || res.Findings[0].Name != "typo" || res.Findings[0].File != "pr.yaml" || res.Findings[0].Line == 0 {
		t.Errorf("findings %+v, want the file's typo", res.Findings)
	}
	if res.ClusterOnly != 1 {
		t.Errorf("cluster-only findings %d, want 1 (broken)", res.ClusterOnly)
	}
	res = liveRun(t, cluster, "", nil, "monitor-selector-no-match")
	if len(res.Findings) != 1 || res.Findings[0].Name != "broken" || res.Findings[0].File != "" {
		t.Errorf("findings %+v, want the cluster's broken monitor", res.Findings)
	}
}
