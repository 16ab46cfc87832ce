package jsonnet

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-jsonnet"
	"github.com/google/go-jsonnet/ast"
	"github.com/google/go-jsonnet/toolutils"

	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

// The alerts each switch of the mixin's _config turns off.
var (
	prometheusServerAlerts = []string{
		"LookoutPrometheusBadConfig",
		"LookoutPrometheusRuleFailures",
		"LookoutPrometheusNotConnectedToAlertmanagers",
		"LookoutPrometheusErrorSendingAlerts",
		"LookoutPrometheusTSDBCompactionsFailing",
	}
	kubeStateMetricsAlerts = []string{"LookoutOperatorNotReady"}
	alertmanagerAlerts     = []string{
		"LookoutAlertmanagerBadConfig",
		"LookoutAlertmanagerConfigInconsistent",
		"LookoutAlertmanagerMembersInconsistent",
		"LookoutAlertmanagerNotificationsFailing",
		"LookoutAlertmanagerClusterDown",
		"LookoutAlertmanagerCrashlooping",
	}
)

// concat joins lists of alert names into a new slice.
func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func alertNames(m *mixin) []string {
	var out []string
	for _, g := range m.Alerts.Groups {
		for _, r := range g.Rules {
			out = append(out, r.Alert)
		}
	}
	return out
}

// TestMixinSwitches renders the mixin with each switch on and off and checks that exactly
// the alerts of that switch come and go, that no group is left empty and that nothing a
// dashboard shows uses kube-state-metrics with the switch off.
func TestMixinSwitches(t *testing.T) {
	root := repoRoot(t)
	all := alertNames(loadMixin(t))
	for _, want := range concat(prometheusServerAlerts, kubeStateMetricsAlerts, alertmanagerAlerts) {
		if !slices.Contains(all, want) {
			t.Fatalf("%s is not in the mixin with its default configuration", want)
		}
	}
	for _, tc := range []struct {
		overrides string
		gone      []string
	}{
		{`{}`, nil},
		{`{ prometheusServerAlerts: true, kubeStateMetrics: true, alertmanagerAlerts: true }`, nil},
		{`{ prometheusServerAlerts: false }`, prometheusServerAlerts},
		{`{ kubeStateMetrics: false }`, kubeStateMetricsAlerts},
		{`{ alertmanagerAlerts: false }`, alertmanagerAlerts},
		{`{ prometheusServerAlerts: false, kubeStateMetrics: false, alertmanagerAlerts: false }`, concat(prometheusServerAlerts, kubeStateMetricsAlerts, alertmanagerAlerts)},
	} {
		t.Run(tc.overrides, func(t *testing.T) {
			m := &mixin{}
			if err := render.EvaluateSnippet(root, mixinSnippet(tc.overrides), m); err != nil {
				t.Fatal(err)
			}
			got := alertNames(m)
			for _, a := range all {
				if slices.Contains(tc.gone, a) == slices.Contains(got, a) {
					t.Errorf("alert %s: present=%v, want %v", a, slices.Contains(got, a), !slices.Contains(tc.gone, a))
				}
			}
			for _, g := range m.Alerts.Groups {
				if len(g.Rules) == 0 {
					t.Errorf("group %s is left empty", g.Name)
				}
			}
			if len(m.Rules.Groups) == 0 || len(m.Dashboards) != len(loadMixin(t).Dashboards) {
				t.Errorf("the switches changed the recording rules or dashboards")
			}
			if strings.Contains(tc.overrides, "kubeStateMetrics: false") {
				b, _ := json.Marshal(m)
				if strings.Contains(string(b), "kube_") {
					t.Errorf("kubeStateMetrics: false leaves a kube-state-metrics series in the mixin")
				}
			}
		})
	}
}

// TestStackMixinSwitches checks the defaults the stack gives the switches: the
// Prometheus server and Alertmanager alerts on (the stack ships neither upstream mixin),
// the kube-state-metrics alerts on with kube-state-metrics in the stack and off without it.
func TestStackMixinSwitches(t *testing.T) {
	names := func(s map[string]map[string]object) []string {
		var out []string
		for _, g := range s["mixin"]["prometheusRule"].get("spec", "groups").([]any) {
			for _, r := range g.(map[string]any)["rules"].([]any) {
				if a, ok := r.(map[string]any)["alert"].(string); ok {
					out = append(out, a)
				}
			}
		}
		return out
	}
	// The stack ships no Prometheus mixin of its own, so its defaults keep Lookout's
	// server alerts: nothing else would alert on a failed reload or rule evaluation.
	def := names(evaluateStack(t, "{}"))
	for _, a := range prometheusServerAlerts {
		if !slices.Contains(def, a) {
			t.Errorf("the stack lacks %s by default", a)
		}
	}
	for _, a := range alertmanagerAlerts {
		if !slices.Contains(def, a) {
			t.Errorf("the stack lacks %s by default", a)
		}
	}
	for _, a := range kubeStateMetricsAlerts {
		if !slices.Contains(def, a) {
			t.Errorf("the stack lacks %s although it runs kube-state-metrics", a)
		}
	}
	noKSM := names(evaluateStack(t, "{ kubeStateMetrics+: { enabled: false } }"))
	for _, a := range kubeStateMetricsAlerts {
		if slices.Contains(noKSM, a) {
			t.Errorf("the stack ships %s without kube-state-metrics", a)
		}
	}
	off := names(evaluateStack(t, "{ mixin+: { prometheusServerAlerts: false } }"))
	for _, a := range prometheusServerAlerts {
		if slices.Contains(off, a) {
			t.Errorf("values.mixin.prometheusServerAlerts: false keeps %s", a)
		}
	}
	amOff := names(evaluateStack(t, "{ mixin+: { alertmanagerAlerts: false } }"))
	for _, a := range alertmanagerAlerts {
		if slices.Contains(amOff, a) {
			t.Errorf("values.mixin.alertmanagerAlerts: false keeps %s", a)
		}
	}
}

// importsOf lists the import, importstr and importbin paths of a jsonnet file.
func importsOf(t *testing.T, file string) []string {
	t.Helper()
	code, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	node, err := jsonnet.SnippetToAST(file, string(code))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		switch i := n.(type) {
		case *ast.Import:
			out = append(out, i.File.Value)
		case *ast.ImportStr:
			out = append(out, i.File.Value)
		case *ast.ImportBin:
			out = append(out, i.File.Value)
		}
		for _, c := range toolutils.Children(n) {
			walk(c)
		}
	}
	walk(node)
	return out
}

// TestMixinSelfContained fails when a file under jsonnet/mixin imports anything outside
// it, or anything found only through a library path: a repository that vendors the
// mixin with jsonnet-bundler gets this directory and nothing else. Then it copies the
// directory alone to a vendor tree and renders the mixin from there.
func TestMixinSelfContained(t *testing.T) {
	root := repoRoot(t)
	dir := filepath.Join(root, "jsonnet", "mixin")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	imports := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".jsonnet") && !strings.HasSuffix(f, ".libsonnet") {
			continue
		}
		rel, _ := filepath.Rel(root, f)
		for _, imp := range importsOf(t, f) {
			imports++
			target := filepath.Clean(filepath.Join(filepath.Dir(f), filepath.FromSlash(imp)))
			if filepath.IsAbs(imp) || (target != dir && !strings.HasPrefix(target, dir+string(filepath.Separator))) {
				t.Errorf("%s imports %q, which is outside jsonnet/mixin", rel, imp)
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s imports %q, which is not a file next to it (a library path import?): %v", rel, imp, err)
			}
		}
	}
	if imports < 10 {
		t.Fatalf("found only %d imports under jsonnet/mixin", imports)
	}

	var manifest struct {
		Version      int   `json:"version"`
		Dependencies []any `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "jsonnetfile.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &manifest); err != nil || manifest.Version != 1 || len(manifest.Dependencies) != 0 {
		t.Errorf("jsonnet/mixin/jsonnetfile.json: version %d, %d dependencies, %v: want version 1 and none", manifest.Version, len(manifest.Dependencies), err)
	}

	// Vendored: the directory alone, at the path jb gives it, and a VM whose only library
	// path is the vendor directory.
	vendor := t.TempDir()
	dst := filepath.Join(vendor, "github.com", "lookout-operator", "lookout", "jsonnet", "mixin")
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vm := jsonnet.MakeVM()
	vm.Importer(&jsonnet.FileImporter{JPaths: []string{vendor}})
	out, err := vm.EvaluateAnonymousSnippet("consumer.jsonnet", `
local m = (import 'github.com/lookout-operator/lookout/jsonnet/mixin/mixin.libsonnet') + { _config+:: { prometheusServerAlerts: false } };
{ alerts: m.prometheusAlerts, rules: m.prometheusRules, dashboards: m.grafanaDashboards }`)
	if err != nil {
		t.Fatalf("the vendored mixin does not evaluate: %v", err)
	}
	var got mixin
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	want := loadMixin(t)
	if len(got.Dashboards) != len(want.Dashboards) || len(got.Rules.Groups) != len(want.Rules.Groups) || len(got.Alerts.Groups) != len(want.Alerts.Groups)-1 {
		t.Errorf("the vendored mixin renders %d dashboards, %d recording groups, %d alert groups; want %d, %d, %d",
			len(got.Dashboards), len(got.Rules.Groups), len(got.Alerts.Groups), len(want.Dashboards), len(want.Rules.Groups), len(want.Alerts.Groups)-1)
	}
	for _, f := range []string{"alerts.jsonnet", "rules.jsonnet", "dashboards.jsonnet"} {
		if _, err := vm.EvaluateFile(filepath.Join(dst, f)); err != nil {
			t.Errorf("vendored %s: %v", f, err)
		}
	}
}
