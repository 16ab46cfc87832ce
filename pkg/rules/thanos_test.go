package rules

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/rulefmt"
	"go.yaml.in/yaml/v3"

	"github.com/lookout-operator/lookout/pkg/versions"
)

func thanosValidator(t *testing.T, version string) *Validator {
	t.Helper()
	v, err := NewValidator(ThanosOptionsFor(version))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestThanosEngine(t *testing.T) {
	for _, c := range []struct{ thanos, want string }{
		{"0.10.0", "2.32.0"}, {"0.24.0", "2.32.0"}, {"0.31.1", "2.42.0"}, {"0.37.2", "2.55.0"},
		{"0.38.0", "3.1.0"}, {"0.42.4", "3.5.0"},
	} {
		tv, err := versions.ParseThanos(c.thanos)
		if err != nil {
			t.Fatal(err)
		}
		if got := ThanosEngine(tv).String(); got != c.want {
			t.Errorf("Thanos %s: engine %s, want %s", c.thanos, got, c.want)
		}
	}
	if _, err := NewValidator(Options{Thanos: true}); err == nil || !strings.Contains(err.Error(), "invalid Thanos version") {
		t.Errorf("no version: %v", err)
	}
}

// Fields are gated by the Thanos release that reads them, not by Prometheus's.
func TestThanosFieldGates(t *testing.T) {
	cases := []struct {
		name, version, spec, want string
	}{
		{"keep_firing_for before 0.34", "v0.33.0", alert(`expr: up, keep_firing_for: 5m`), `field "keep_firing_for" needs Thanos 0.34.0 or later; this Thanos Ruler runs 0.33.0`},
		{"query_offset before 0.38", "v0.37.0", `groups: [{name: g, query_offset: 1m, rules: [{alert: A, expr: up}]}]`, `field "query_offset" needs Thanos 0.38.0`},
		{"group labels before 0.39", "v0.38.0", `groups: [{name: g, labels: {a: b}, rules: [{alert: A, expr: up}]}]`, `field "labels" needs Thanos 0.39.0`},
		{"limit before 0.24", "v0.23.0", `groups: [{name: g, limit: 3, rules: [{alert: A, expr: up}]}]`, `field "limit" needs Thanos 0.24.0`},
		{"UTF-8 label before 0.38", "v0.37.0", record(`expr: up, labels: {"team.name": x}`), "invalid label name"},
		{"experimental function", "v0.42.4", alert(`expr: 'sort_by_label(up, "job")'`), "a Thanos Ruler does not evaluate experimental PromQL features"},
		{"function newer than the engine", "v0.30.0", alert(`expr: "histogram_avg(up)"`), `function "histogram_avg" needs Prometheus 2.51.0 or later; this Thanos Ruler runs Thanos 0.30.0, whose rule engine is that of Prometheus 2.40.0`},
		{"bad partial response strategy", "v0.42.4", `groups: [{name: g, partial_response_strategy: sometimes, rules: [{alert: A, expr: up}]}]`, `spec.groups[0].partial_response_strategy (group "g"): "sometimes" is not a partial response strategy`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ps := thanosValidator(t, c.version).Validate(specFrom(t, c.spec))
			if err := Problems(ps); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("problems %v, want one containing %q", err, c.want)
			}
		})
	}
	for _, c := range []struct{ name, version, spec string }{
		{"keep_firing_for on 0.34", "v0.34.0", alert(`expr: up, keep_firing_for: 5m`)},
		{"every field on the default", "v0.42.4", `groups: [{name: g, interval: 1m, query_offset: 30s, limit: 10, labels: {team: a}, partial_response_strategy: ABORT,
			rules: [{alert: A, expr: up == 0, for: 1m, keep_firing_for: 5m}]}]`},
		{"UTF-8 names from 0.38", "v0.38.0", record(`expr: up, labels: {"team.name": x}`)},
		{"partial response warn", "v0.20.0", `groups: [{name: g, partial_response_strategy: warn, rules: [{alert: A, expr: up}]}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if ps := thanosValidator(t, c.version).Validate(specFrom(t, c.spec)); len(ps) != 0 {
				t.Errorf("unexpected problems: %v", Problems(ps))
			}
		})
	}
}

// The rendered file of a Thanos Ruler keeps partial_response_strategy, and is a rule file
// rulefmt reads once that field is set aside; Prometheus's file never carries it.
func TestThanosRenderKeepsPartialResponseStrategy(t *testing.T) {
	spec := specFrom(t, `groups: [{name: g, interval: 30s, partial_response_strategy: warn, rules: [{alert: A, expr: up == 0, for: 1m}]}, {name: h, rules: [{record: r, expr: up}]}]`)
	rule := newRule("app", "r", 3)
	rule.Spec = spec
	file, problem := Prepare(thanosValidator(t, "v0.42.4"), rule, "")
	if problem != "" {
		t.Fatal(problem)
	}
	if !strings.Contains(string(file), "partial_response_strategy: warn") {
		t.Fatalf("no partial_response_strategy in\n%s", file)
	}
	var parsed struct {
		Groups []struct {
			rulefmt.RuleGroup       `yaml:",inline"`
			PartialResponseStrategy string `yaml:"partial_response_strategy"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(file, &parsed); err != nil {
		t.Fatal(err)
	}
	if len(parsed.Groups) != 2 || parsed.Groups[0].PartialResponseStrategy != "warn" || parsed.Groups[1].PartialResponseStrategy != "" ||
		parsed.Groups[0].Name != "g" || len(parsed.Groups[0].Rules) != 1 {
		t.Fatalf("parsed %+v", parsed)
	}
	if h, ok := ParseHeader(file); !ok || h.Generation != 3 || h.Name != "r" {
		t.Fatalf("header %+v %v", h, ok)
	}
	prom, err := NewValidator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	pfile, problem := Prepare(prom, rule, "")
	if problem != "" || strings.Contains(string(pfile), "partial_response_strategy") {
		t.Fatalf("Prometheus file (problem %q):\n%s", problem, pfile)
	}
}

// thanosBinary is bin/thanos of the repository (built by `make tools`), or "" when absent.
func thanosBinary(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "bin", "thanos"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// The real Thanos (bin/thanos, v0.42.4) loads the files rendered for a Thanos Ruler:
// enforcement, every group field, partial_response_strategy in both cases, and it
// refuses a strategy the validator refuses too.
func TestThanosLoadsRenderedFiles(t *testing.T) {
	bin := thanosBinary(t)
	if bin == "" {
		t.Skip("bin/thanos not built (make tools)")
	}
	v := thanosValidator(t, "v0.42.4")
	dir := t.TempDir()
	specs := []string{
		`groups: [{name: g, interval: 1m, query_offset: 30s, limit: 10, labels: {team: a}, partial_response_strategy: warn,
			rules: [{alert: A, expr: 'sum by (job) (rate(http_requests_total{code=~"5.."}[5m])) > 1', for: 1m, keep_firing_for: 5m, labels: {severity: page}, annotations: {summary: "{{ $labels.job }} fails"}}]}]`,
		`groups: [{name: h, partial_response_strategy: ABORT, rules: [{record: "job:up:sum", expr: sum by (job) (up)}]}, {name: i, rules: [{record: "r", expr: '{"my.metric"}'}]}]`,
	}
	var files []string
	for i, y := range specs {
		rule := newRule("app", fmt.Sprintf("r%d", i), 1)
		rule.Spec = specFrom(t, y)
		if ps := v.Validate(rule.Spec); len(ps) != 0 {
			t.Fatalf("spec %d: %v", i, Problems(ps))
		}
		file, problem := Prepare(v, rule, "namespace")
		if problem != "" {
			t.Fatalf("spec %d: %s", i, problem)
		}
		name := filepath.Join(dir, fmt.Sprintf("f%d.yaml", i))
		if err := os.WriteFile(name, file, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	check := func(files ...string) error {
		args := []string{"tools", "rules-check"}
		for _, f := range files {
			args = append(args, "--rules="+f)
		}
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
		return nil
	}
	if err := check(files...); err != nil {
		t.Errorf("Thanos refuses the rendered files: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("groups:\n- name: g\n  partial_response_strategy: sometimes\n  rules:\n  - record: r\n    expr: up\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := check(bad); err == nil {
		t.Error("Thanos accepts a strategy the validator refuses: the negative control does not hold")
	}
}
