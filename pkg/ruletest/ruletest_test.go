package ruletest

import (
	"bytes"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/render"
)

// prometheusFrom loads the one Prometheus of a testdata manifest.
func prometheusFrom(t *testing.T, file string) *promserver.Server {
	t.Helper()
	objs, err := render.Load("default", filepath.Join("testdata", file))
	if err != nil || len(objs.Prometheuses) != 1 {
		t.Fatalf("loading %s: %v (%d Prometheus objects)", file, err, len(objs.Prometheuses))
	}
	return objs.Prometheuses[0]
}

// failTooManyErrors is what fail.yaml reports, in promtool's words.
const failTooManyErrors = `    name: wrong expectations,
    alertname: TooManyErrors, time: 3m, 
        exp:[
            0:
              Labels:{alertname="TooManyErrors", severity="warning"}
              Annotations:{summary="10 errors"}
            ], 
        got:[
            0:
              Labels:{alertname="TooManyErrors", severity="page"}
              Annotations:{summary="10 errors"}
            ]

    expr: "sum(errors_total)", time: 3m,
        exp: {} 1.1E+01
        got: {} 1E+01
`

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name       string
		files      []string
		prometheus string // a testdata manifest holding the Prometheus
		rulesFrom  string // a testdata manifest whose PrometheusRules rule_files may name
		run        string
		wantCode   int
		want       []string // substrings of the report
		wantNot    []string
	}{
		{name: "alert and promql tests pass over two groups of a PrometheusRule and a plain file", files: []string{"pass.yaml"}, wantCode: 0,
			want: []string{"Processing test file: testdata/pass.yaml\n  SUCCESS\n"}},
		{name: "a failing alert test and a failing promql_expr_test print exp and got", files: []string{"fail.yaml"}, wantCode: 1,
			want: []string{"  FAILED:\n" + failTooManyErrors}},
		{name: "as written the rule sums both namespaces", files: []string{"as-written.yaml"}, wantCode: 0},
		{name: "as written the enforced expectation fails", files: []string{"enforced.yaml"}, wantCode: 1,
			want: []string{`Annotations:{summary="7 errors"}`}},
		{name: "enforced the rule sees its own namespace only", files: []string{"enforced.yaml"}, prometheus: "prometheus.yaml", wantCode: 0},
		{name: "enforced the as-written expectation fails", files: []string{"as-written.yaml"}, prometheus: "prometheus.yaml", wantCode: 1,
			want: []string{"got:[]"}},
		{name: "enforced the alert carries the namespace label", files: []string{"enforced-label.yaml"}, prometheus: "prometheus.yaml", wantCode: 0},
		{name: "a rule excluded from enforcement is tested as written", files: []string{"as-written.yaml"}, prometheus: "prometheus-excluded.yaml", wantCode: 0},
		{name: "a rule the Prometheus does not select is tested with a warning", files: []string{"as-written.yaml"}, prometheus: "prometheus-selective.yaml", wantCode: 0,
			want: []string{"  WARNING: testdata/manifests/app.yaml (PrometheusRule team-a/errors): not selected by Prometheus monitoring/selective (NotSelectedByLabels"}},
		{name: "a namespace no manifest describes exists without labels", files: []string{"as-written.yaml"}, prometheus: "prometheus-nsselector.yaml", wantCode: 0,
			wantNot: []string{"WARNING"}},
		{name: "rule_files names a PrometheusRule given with -f", files: []string{"named.yaml"}, rulesFrom: "manifests/app.yaml", wantCode: 0},
		{name: "a name matching nothing is a warning, as in promtool", files: []string{"named.yaml"}, wantCode: 1,
			want: []string{"  WARNING: no file match pattern testdata/team-a/errors\n"}},
		{name: "--run picks test groups by name", files: []string{"fail.yaml", "pass.yaml"}, run: "^instance", wantCode: 0,
			wantNot: []string{"wrong expectations"}},
		{name: "an unknown field in the test file is a file error", files: []string{"broken-yaml.yaml"}, wantCode: 2,
			want: []string{"field alert_rule_tests not found"}},
		{name: "a PrometheusRule the operator rejects is a file error", files: []string{"broken-rule.yaml"}, wantCode: 2,
			want: []string{"testdata/badrule/rule.yaml (PrometheusRule default/bad): rejected as the operator would reject it: spec.groups[0].rules[0].expr"}},
		{name: "input series that do not parse break the group", files: []string{"broken-series.yaml"}, wantCode: 2,
			want: []string{"parse error"}},
		{name: "a missing test file is a file error", files: []string{"missing.yaml"}, wantCode: 2},
		{name: "the worst outcome of several files decides", files: []string{"pass.yaml", "fail.yaml", "broken-yaml.yaml"}, wantCode: 2,
			want: []string{"SUCCESS", failTooManyErrors}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			if tc.prometheus != "" {
				opts.Prometheus = prometheusFrom(t, tc.prometheus)
			}
			if tc.rulesFrom != "" {
				objs, err := render.Load("default", filepath.Join("testdata", tc.rulesFrom))
				if err != nil {
					t.Fatal(err)
				}
				opts.Rules = objs.PrometheusRules
			}
			if tc.run != "" {
				opts.Run = regexp.MustCompile(tc.run)
			}
			var paths []string
			for _, f := range tc.files {
				paths = append(paths, filepath.Join("testdata", f))
			}
			rep, err := Run(opts, paths...)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			rep.Write(&out)
			if got := rep.ExitCode(); got != tc.wantCode {
				t.Errorf("exit code %d, want %d; report:\n%s", got, tc.wantCode, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(out.String(), w) {
					t.Errorf("report has %q:\n%s", w, out.String())
				}
			}
			var x bytes.Buffer
			if err := rep.WriteJUnit(&x); err != nil {
				t.Fatal(err)
			}
			if err := xml.Unmarshal(x.Bytes(), new(junitSuites)); err != nil {
				t.Errorf("JUnit XML does not parse: %v\n%s", err, x.String())
			}
		})
	}
}

// TestSameMessageAsPromtool runs promtool (bin/promtool, built by make test) on the plain
// rule file equivalent of a PrometheusRule and checks the report is the same word for word.
func TestSameMessageAsPromtool(t *testing.T) {
	promtool, err := filepath.Abs("../../bin/promtool")
	if err == nil {
		_, err = os.Stat(promtool)
	}
	if err != nil {
		t.Skip("bin/promtool is not built (make test builds it)")
	}
	for _, tc := range []struct {
		file     string
		wantCode int // ours; promtool exits 1 on a broken test file too
	}{
		{"plain-pass.yaml", 0},
		{"fail-plain.yaml", 1},
		{"eval-error.yaml", 1},
		{"fuzzy.yaml", 0},
		{"exact.yaml", 1},
		{"broken-series.yaml", 2},
		{"missing-alertname.yaml", 2},
	} {
		cmd := exec.Command(promtool, "test", "rules", tc.file)
		cmd.Dir = "testdata"
		want, _ := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); code != min(tc.wantCode, 1) {
			t.Errorf("%s: promtool exited %d, want %d", tc.file, code, min(tc.wantCode, 1))
		}
		wd, _ := os.Getwd()
		if err := os.Chdir("testdata"); err != nil {
			t.Fatal(err)
		}
		rep, err := Run(Options{}, tc.file)
		_ = os.Chdir(wd)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		rep.Write(&got)
		if got.String() != string(want) || rep.ExitCode() != tc.wantCode {
			t.Errorf("%s: lookout (exit %d):\n%s\npromtool:\n%s", tc.file, rep.ExitCode(), got.String(), want)
		}
	}
	// And fail.yaml, on the PrometheusRule, says what promtool says on the plain file.
	rep, err := Run(Options{}, "testdata/fail.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rep.Files[0].Groups[0].Failures, "\n\n") + "\n"; got != failTooManyErrors {
		t.Errorf("fail.yaml:\n%s\nwant:\n%s", got, failTooManyErrors)
	}
}

// TestMixinTestsOnTheStackPrometheusRule runs the unit tests of the project's own mixin
// (test/jsonnet/testdata/alerts_test.yaml, which promtool runs on the plain rule file) on
// the PrometheusRule example/stack deploys, as the stack's Prometheus runs it.
func TestMixinTestsOnTheStackPrometheusRule(t *testing.T) {
	dir := t.TempDir()
	for from, to := range map[string]string{
		"../../test/jsonnet/testdata/alerts_test.yaml":  "alerts_test.yaml",
		"../../example/stack/mixin-prometheusRule.yaml": "lookout.yaml", // the name the test file gives
	} {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stack, err := render.Load("default", "../../example/stack/prometheus-prometheus.yaml")
	if err != nil || len(stack.Prometheuses) != 1 {
		t.Fatalf("the stack's Prometheus: %v", err)
	}
	rep, err := Run(Options{Prometheus: stack.Prometheuses[0]}, filepath.Join(dir, "alerts_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	rep.Write(&out)
	if rep.ExitCode() != 0 || len(rep.Files[0].Warnings) > 0 || len(rep.Files[0].Groups) < 10 {
		t.Errorf("exit %d, %d groups:\n%s", rep.ExitCode(), len(rep.Files[0].Groups), out.String())
	}
}

// TestRuleFilesAreWhatRenderGenerates checks that the PrometheusRules are tested in the
// rule files `render` (and so the controller) generates for the Prometheus, byte for byte.
func TestRuleFilesAreWhatRenderGenerates(t *testing.T) {
	for _, prom := range []string{"prometheus.yaml", "prometheus-excluded.yaml"} {
		objs, err := render.Load("default", filepath.Join("testdata", prom), "testdata/manifests/app.yaml")
		if err != nil {
			t.Fatal(err)
		}
		outs, err := render.Render(objs, render.Options{})
		if err != nil || len(outs) != 1 || outs[0].Err != nil {
			t.Fatalf("render: %v %+v", err, outs)
		}
		want := map[string]bool{}
		for _, b := range outs[0].RuleFiles {
			want[string(b)] = true
		}
		r, err := newRunner(Options{Prometheus: objs.Prometheuses[0]})
		if err != nil {
			t.Fatal(err)
		}
		files, err := r.loadRuleFile("testdata/manifests/app.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != len(want) || len(files) != 2 {
			t.Fatalf("%s: %d rule files tested, render generates %d", prom, len(files), len(want))
		}
		for _, f := range files {
			if !want[string(f.content)] {
				t.Errorf("%s: %s is not a rule file render generates:\n%s", prom, f.id, f.content)
			}
		}
	}
}
