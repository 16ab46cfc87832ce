package jsonnet

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// writeRuleFiles writes the mixin's rules as lookout.yaml into a temporary directory,
// next to a copy of testdata/alerts_test.yaml.
func writeRuleFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rules, err := yaml.JSONToYAML(loadMixin(t).ruleFileJSON(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lookout.yaml"), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	tests, err := os.ReadFile(filepath.Join("testdata", "alerts_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "alerts_test.yaml"), tests, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPromtoolRules checks the rule file with promtool and runs the alerts' unit tests:
// each alert fires on the series that should make it fire, with the labels and rendered
// annotations given, and stays quiet where it should.
func TestPromtoolRules(t *testing.T) {
	promtool := toolPath(t, "promtool")
	dir := writeRuleFiles(t)
	for _, args := range [][]string{
		{"check", "rules", "--lint=all", "--lint-fatal", "lookout.yaml"},
		{"test", "rules", "alerts_test.yaml"},
	} {
		cmd := exec.Command(promtool, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("promtool %v: %v\n%s", args, err, out)
		}
	}
}

// TestEveryAlertHasAFiringTest checks that testdata/alerts_test.yaml makes every alert of
// the mixin fire at least once, so no alert goes untested.
func TestEveryAlertHasAFiringTest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "alerts_test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Tests []struct {
			Name          string `json:"name"`
			AlertRuleTest []struct {
				Alertname string           `json:"alertname"`
				ExpAlerts []map[string]any `json:"exp_alerts"`
			} `json:"alert_rule_test"`
		} `json:"tests"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	fires := map[string]bool{}
	quiet := map[string]bool{}
	for _, tc := range f.Tests {
		for _, a := range tc.AlertRuleTest {
			if len(a.ExpAlerts) > 0 {
				fires[a.Alertname] = true
			} else {
				quiet[a.Alertname] = true
			}
		}
	}
	known := map[string]bool{}
	for _, g := range loadMixin(t).Alerts.Groups {
		for _, r := range g.Rules {
			known[r.Alert] = true
			if !fires[r.Alert] {
				t.Errorf("%s: no promtool test makes it fire", r.Alert)
			}
		}
	}
	for name := range fires {
		if !known[name] {
			t.Errorf("alerts_test.yaml tests %s, which is no alert of the mixin", name)
		}
	}
	t.Logf("%d alerts fire in a test, %d are also tested not to fire", len(fires), len(quiet))
}
