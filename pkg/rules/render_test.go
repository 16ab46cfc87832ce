package rules

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

const renderSpec = `groups:
- name: node
  interval: 90s
  query_offset: 1m
  limit: 100
  labels: {team: infra}
  partial_response_strategy: warn
  rules:
  - record: instance:node_cpu:rate5m
    expr: sum by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[5m]))
    labels: {priority: "1", enabled: "true", ratio: "0.5", empty: ""}
  - alert: NodeDown
    expr: |
      up{job="node"}
        == 0
    for: 5m
    keep_firing_for: 10m
    labels: {severity: critical, zone: "null"}
    annotations:
      summary: "{{ $labels.instance }} is down"
      description: "value: {{ $value }}; see: https://example.invalid/runbook#node"
- name: numbers
  rules:
  - record: one
    expr: 1
`

// goldenCompare compares got with testdata/<name>, or rewrites it with -update.
func goldenCompare(t *testing.T, name string, got []byte) {
	t.Helper()
	goldensUsed.Add(name)
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestRenderFileGolden(t *testing.T) {
	rule := newRule("monitoring", "node-rules", 7)
	got, err := RenderFile(rule, specFrom(t, renderSpec))
	if err != nil {
		t.Fatal(err)
	}
	goldenCompare(t, "render.golden", got)

	// Deterministic: rendering again gives the same bytes.
	for range 20 {
		again, err := RenderFile(rule, specFrom(t, renderSpec))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, got) {
			t.Fatal("RenderFile is not deterministic")
		}
	}
}

// TestRenderFileLoadsInPrometheus parses the rendered file with rulefmt, as Prometheus
// does when it loads rule files, and checks that values survive the round trip.
func TestRenderFileLoadsInPrometheus(t *testing.T) {
	spec := specFrom(t, renderSpec)
	out, err := RenderFile(newRule("monitoring", "node-rules", 7), spec)
	if err != nil {
		t.Fatal(err)
	}
	groups, errs := rulefmt.Parse(out, false, model.UTF8Validation, parser.NewParser(parser.Options{}), promslog.NewNopLogger())
	if len(errs) > 0 {
		t.Fatalf("rulefmt refuses the rendered file: %v", errs)
	}
	if len(groups.Groups) != 2 {
		t.Fatalf("got %d groups, want 2", len(groups.Groups))
	}
	g := groups.Groups[0]
	if g.Interval != model.Duration(90e9) || g.QueryOffset == nil || *g.QueryOffset != model.Duration(60e9) || g.Limit != 100 || g.Labels["team"] != "infra" {
		t.Errorf("group fields lost: %+v", g)
	}
	rec := g.Rules[0]
	for k, want := range map[string]string{"priority": "1", "enabled": "true", "ratio": "0.5", "empty": ""} {
		if got, ok := rec.Labels[k]; !ok || got != want {
			t.Errorf("label %s = %q (present %v), want %q", k, got, ok, want)
		}
	}
	al := g.Rules[1]
	if al.Expr != "up{job=\"node\"}\n  == 0\n" || al.For != model.Duration(300e9) || al.KeepFiringFor != model.Duration(600e9) {
		t.Errorf("alert fields lost: %+v", al)
	}
	if al.Labels["zone"] != "null" {
		t.Errorf("the string \"null\" did not stay a string: %q", al.Labels["zone"])
	}
	if groups.Groups[1].Rules[0].Expr != "1" {
		t.Errorf("numeric expr = %q, want \"1\"", groups.Groups[1].Rules[0].Expr)
	}
	if strings.Contains(string(out), "partial_response_strategy") {
		t.Error("the Thanos-only partial_response_strategy was rendered")
	}
}

func TestRenderFileBadDuration(t *testing.T) {
	_, err := RenderFile(newRule("ns", "r", 1), specFrom(t, alert(`expr: up, for: 5x`)))
	want := `rendering PrometheusRule ns/r: spec.groups[0].rules[0].for: unknown unit "x" in duration "5x"`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestFileName(t *testing.T) {
	r := newRule("monitoring", "node-rules", 1)
	r.UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
	if got, want := FileName(r), "monitoring-node-rules-1b4e28ba-2fa1-11d2-883f-0016d3cca427.yaml"; got != want {
		t.Errorf("FileName = %q, want %q", got, want)
	}
	long := newRule(strings.Repeat("n", 63), strings.Repeat("m", 253), 1)
	long.UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427"
	got := FileName(long)
	if len(got) != maxKeyLength {
		t.Errorf("long FileName has %d characters, want %d", len(got), maxKeyLength)
	}
	if !strings.HasSuffix(got, "-1b4e28ba-2fa1-11d2-883f-0016d3cca427.yaml") || !strings.HasPrefix(got, strings.Repeat("n", 63)+"-mmm") {
		t.Errorf("long FileName = %q, want the namespace, the start of the name and the whole UID", got)
	}
}
