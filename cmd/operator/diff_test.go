package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/test/goldentest"
)

var updateDiff = flag.Bool("update-diff", false, "rewrite testdata/diff/*.golden from the current output")

func runDiff(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = diffCmd(args, &out, &errb)
	return out.String(), errb.String(), code
}

// diffCases are the trees of testdata/diff compared with base/, with the exit status
// each must give; the output is in testdata/diff/<case>.golden (and <case>.stat.golden).
var diffCases = []struct {
	name string
	code int
}{
	{"interval", 1},       // one ServiceMonitor's interval: exactly that hunk
	{"add-monitor", 1},    // a ServiceMonitor added: its job
	{"remove-monitor", 1}, // a ServiceMonitor removed
	{"add-rule", 1},       // a rule added to a PrometheusRule
	{"remove-rule", 1},    // the PrometheusRule removed: its rule file
	{"add-instance", 1},   // a ThanosRuler added: its rule files
	{"reordered", 0},      // the same objects in another order: no difference
}

func TestDiffGolden(t *testing.T) {
	var names []string
	for _, c := range diffCases {
		for _, stat := range []bool{false, true} {
			name := c.name
			args := []string{"testdata/diff/base", "testdata/diff/" + c.name}
			if stat {
				name += ".stat"
				args = append(args, "--stat")
			}
			names = append(names, name)
			t.Run(name, func(t *testing.T) {
				out, errs, code := runDiff(args...)
				if code != c.code {
					t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
				}
				if errs != "" {
					t.Errorf("stderr:\n%s", errs)
				}
				golden := filepath.Join("testdata/diff", name+".golden")
				if *updateDiff {
					if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if out != string(want) {
					t.Errorf("%s differs: %s", golden, goldentest.FirstDiff(string(want), out))
				}
			})
		}
	}
	goldentest.CheckCases(t, "testdata/diff", names)
}

// TestDiffIntervalIsOneHunk: changing one monitor's interval gives one instance, one file,
// one hunk, caused by that monitor, changing one line.
func TestDiffIntervalIsOneHunk(t *testing.T) {
	out, _, code := runDiff("testdata/diff/base", "testdata/diff/interval")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(out, "\n@@ "); n != 1 {
		t.Errorf("%d hunks:\n%s", n, out)
	}
	if !strings.Contains(out, "# caused by: serviceMonitor/apps/api/0\n") ||
		!strings.Contains(out, "\n-    scrape_interval: 30s\n+    scrape_interval: 10s\n") {
		t.Errorf("output:\n%s", out)
	}
	var changed int
	for _, l := range strings.Split(out, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed++
		}
	}
	if changed != 2 {
		t.Errorf("%d changed lines, want 2:\n%s", changed, out)
	}
}

// TestDiffIdenticalTrees: a tree against itself exits 0 and prints nothing.
func TestDiffIdenticalTrees(t *testing.T) {
	out, errs, code := runDiff("testdata/diff/base", "testdata/diff/base")
	if code != 0 || out != "" || errs != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// TestDiffFromNothing: every instance of a tree is added when compared with an empty one,
// the PrometheusAgent among them.
func TestDiffFromNothing(t *testing.T) {
	out, _, code := runDiff(t.TempDir(), "testdata/diff/base", "--stat")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"PrometheusAgent monitoring/edge (added)", "Alertmanager monitoring/main (added)", "Prometheus monitoring/main (added)", "3 instance(s) differ (3 added"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestDiffBadInput: usage errors and manifests that do not decode exit 2 with a message.
func TestDiffBadInput(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badPrometheus := filepath.Join(t.TempDir(), "p.yaml")
	if err := os.WriteFile(badPrometheus, []byte("apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: p, namespace: m}\nspec:\n  serviceMonitorSelector:\n    matchExpressions: [{key: a, operator: Bogus}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"testdata/diff/base"}, "usage: lookout-operator diff"},
		{[]string{"a", "b", "c"}, "usage: lookout-operator diff"},
		{[]string{"--live"}, "usage: lookout-operator diff"},
		{[]string{"--bogus", "a", "b"}, "flag provided but not defined"},
		{[]string{"testdata/diff/base", "testdata/diff/missing"}, "no such file"},
		{[]string{"testdata/diff/base", bad}, "bad.yaml"},
		{[]string{"testdata/diff/base", badPrometheus}, "Prometheus m/p"},
	} {
		out, errs, code := runDiff(c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("diff %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errs, c.want)
		}
	}
}
