package confdiff

import (
	"bytes"
	"strings"
	"testing"
)

const promOld = `global:
  scrape_interval: 30s
scrape_configs:
- job_name: serviceMonitor/apps/api/0
  scrape_interval: 30s
  metrics_path: /metrics
  honor_labels: false
- job_name: serviceMonitor/apps/db/0
  scrape_interval: 30s
  metrics_path: /metrics
`

func prom(data string) []Instance {
	return []Instance{{Kind: "Prometheus", Namespace: "monitoring", Name: "main",
		Files: []File{{Path: "monitoring/main/prometheus.yaml", Kind: PrometheusConfig, Data: []byte(data)}}}}
}

func unified(t *testing.T, old, new []Instance) (string, *Result) {
	t.Helper()
	r, err := Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteUnified(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String(), r
}

// TestReorderedIsEqual: key order, job order, quoting and comments are not differences.
func TestReorderedIsEqual(t *testing.T) {
	reordered := `# a comment
scrape_configs:
- metrics_path: "/metrics"
  job_name: serviceMonitor/apps/db/0
  scrape_interval: 30s
- honor_labels: false
  scrape_interval: '30s'
  job_name: serviceMonitor/apps/api/0
  metrics_path: /metrics
global: {scrape_interval: 30s}
`
	out, r := unified(t, prom(promOld), prom(reordered))
	if !r.Empty() || out != "" {
		t.Fatalf("want no difference, got:\n%s", out)
	}
}

// TestTypeChangeIsADifference: the string "true" is not the boolean true.
func TestTypeChangeIsADifference(t *testing.T) {
	_, r := unified(t, prom(promOld), prom(strings.Replace(promOld, "honor_labels: false", `honor_labels: "false"`, 1)))
	if r.Empty() {
		t.Fatal("a boolean turned string is not reported")
	}
}

// TestIntervalChangeIsOneHunk: one job's interval changed gives one hunk, caused by that
// job's monitor.
func TestIntervalChangeIsOneHunk(t *testing.T) {
	changed := strings.Replace(promOld, "  scrape_interval: 30s\n  metrics_path: /metrics\n  honor", "  scrape_interval: 10s\n  metrics_path: /metrics\n  honor", 1)
	out, r := unified(t, prom(promOld), prom(changed))
	want := `# Prometheus monitoring/main: changed
--- a/monitoring/main/prometheus.yaml
+++ b/monitoring/main/prometheus.yaml
# caused by: serviceMonitor/apps/api/0
@@ -4,7 +4,7 @@
   - job_name: serviceMonitor/apps/api/0
     honor_labels: false
     metrics_path: /metrics
-    scrape_interval: 30s
+    scrape_interval: 10s
   - job_name: serviceMonitor/apps/db/0
     metrics_path: /metrics
     scrape_interval: 30s
`
	if out != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	s := Summarize(r)
	if s.Jobs != (Counts{Changed: 1}) || s.Instances != (Counts{Changed: 1}) {
		t.Fatalf("stat %+v", s)
	}
}

// TestAddedAndRemovedInstances: an instance only in one tree is diffed against nothing.
func TestAddedAndRemovedInstances(t *testing.T) {
	am := []Instance{{Kind: "Alertmanager", Namespace: "monitoring", Name: "main", Files: []File{{
		Path: "monitoring/main/alertmanager.yaml", Kind: AlertmanagerConfig,
		Data: []byte("route:\n  receiver: apps/team/pager\nreceivers:\n- name: apps/team/pager\n- name: \"null\"\n"),
	}}}}
	out, r := unified(t, prom(promOld), am)
	for _, want := range []string{
		"# Alertmanager monitoring/main: added\n--- /dev/null\n+++ b/monitoring/main/alertmanager.yaml\n",
		"# caused by: AlertmanagerConfig apps/team (receivers apps/team/pager), Alertmanager monitoring/main config Secret or spec (receivers null), AlertmanagerConfig apps/team\n",
		"# Prometheus monitoring/main: removed\n--- a/monitoring/main/prometheus.yaml\n+++ /dev/null\n",
		"-  - job_name: serviceMonitor/apps/db/0\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	s := Summarize(r)
	if s.Instances != (Counts{Added: 1, Removed: 1}) || s.Jobs != (Counts{Removed: 2}) || s.Receivers != (Counts{Added: 2}) {
		t.Fatalf("stat %+v", s)
	}
}

// TestRuleGroupCause: a rule file's hunk names its PrometheusRule and group.
func TestRuleGroupCause(t *testing.T) {
	rules := func(expr string) []Instance {
		return []Instance{{Kind: "Prometheus", Namespace: "monitoring", Name: "main", Files: []File{{
			Path: "monitoring/main/rules/apps/alerts.yaml", Kind: RuleFile, Source: "PrometheusRule apps/alerts",
			Data: []byte("groups:\n- name: api\n  rules:\n  - alert: Down\n    expr: " + expr + "\n- name: db\n  rules: []\n"),
		}}}}
	}
	out, r := unified(t, rules("up == 0"), rules("up < 1"))
	if !strings.Contains(out, "# caused by: PrometheusRule apps/alerts group api\n") || !strings.Contains(out, "+        expr: up < 1\n") {
		t.Fatalf("output:\n%s", out)
	}
	if s := Summarize(r); s.RuleGroups != (Counts{Changed: 1}) {
		t.Fatalf("stat %+v", s)
	}
}

// TestBadYAMLIsAnError: a file that is not YAML is an error naming it, not a panic.
func TestBadYAMLIsAnError(t *testing.T) {
	_, err := Compare(prom(promOld), prom("scrape_configs: [\n"))
	if err == nil || !strings.Contains(err.Error(), "monitoring/main/prometheus.yaml") {
		t.Fatalf("err = %v", err)
	}
}

// TestSeparateHunks: changes far apart are separate hunks, each with its own cause.
func TestSeparateHunks(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("scrape_configs:\n")
	b.WriteString("scrape_configs:\n")
	for _, n := range []string{"a", "b", "c", "d"} {
		for _, w := range []*strings.Builder{&a, &b} {
			w.WriteString("- job_name: podMonitor/ns/" + n + "/0\n  params: {x: [1]}\n  relabel_configs:\n  - {action: keep}\n  - {action: drop}\n")
		}
	}
	old := a.String()
	new := strings.Replace(strings.Replace(b.String(), "podMonitor/ns/a/0\n  params: {x: [1]}", "podMonitor/ns/a/0\n  params: {x: [2]}", 1),
		"podMonitor/ns/d/0\n  params: {x: [1]}", "podMonitor/ns/d/0\n  params: {x: [3]}", 1)
	out, r := unified(t, prom(old), prom(new))
	if n := len(r.Instances[0].Files[0].Hunks); n != 2 {
		t.Fatalf("%d hunks:\n%s", n, out)
	}
	if !strings.Contains(out, "# caused by: podMonitor/ns/a/0\n") || !strings.Contains(out, "# caused by: podMonitor/ns/d/0\n") {
		t.Fatalf("output:\n%s", out)
	}
}
