package jsonnet

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

// TestStackUpToDate fails when example/stack/ differs from what example/stack.jsonnet
// renders: a file missing, changed or left over.
func TestStackUpToDate(t *testing.T) {
	root := repoRoot(t)
	want, err := render.Stack(root)
	if err != nil {
		t.Fatal(err)
	}
	have, err := render.OnDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	if diff := render.Diff(want, have); len(diff) > 0 {
		t.Errorf("%s is out of date; run `%s`:\n%s", render.StackDir, render.Command, strings.Join(diff, "\n"))
	}
}

// TestCRDsListed checks that the stack installs every CRD of example/crds.
func TestCRDsListed(t *testing.T) {
	root := repoRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "example", "crds", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRDs in example/crds: %v", err)
	}
	var stack map[string]map[string]any
	if err := render.EvaluateInto(root, render.StackSource, &stack); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var crd map[string]any
		if err := yaml.Unmarshal(b, &crd); err != nil {
			t.Fatal(err)
		}
		name := crd["metadata"].(map[string]any)["name"].(string)
		found := false
		for key, obj := range stack {
			if strings.HasPrefix(key, "setup/") && obj["kind"] == "CustomResourceDefinition" {
				if reflect.DeepEqual(obj, crd) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s (%s) is not in the stack's setup, or differs from the file", name, filepath.Base(f))
		}
	}
}

// object is the part of a Kubernetes object the stack tests read.
type object map[string]any

func (o object) get(path ...any) any {
	var cur any = map[string]any(o)
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				return nil
			}
			cur = m[k]
		case int:
			a, ok := cur.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			cur = a[k]
		}
	}
	return cur
}

func (o object) str(path ...any) string { s, _ := o.get(path...).(string); return s }

// evaluateStack evaluates the stack library with the given values overrides and returns
// its objects by component and name.
func evaluateStack(t *testing.T, values string) map[string]map[string]object {
	t.Helper()
	code := `local l = (import 'lookout/main.libsonnet') + { values+:: ` + values + ` };
{ [c]: l[c] for c in ['setup'] + std.objectFields(l.components) }`
	var out map[string]map[string]object
	if err := render.EvaluateSnippet(repoRoot(t), code, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStackObjects checks the objects the install needs and how they fit together.
func TestStackObjects(t *testing.T) {
	s := evaluateStack(t, "{}")
	op := s["operator"]

	if ns := s["setup"]["namespace"]; ns.str("kind") != "Namespace" || ns.str("metadata", "name") != "lookout" {
		t.Errorf("setup namespace: %v", ns)
	}
	if sa := op["serviceAccount"]; sa.str("metadata", "name") != "lookout-operator" || sa.str("metadata", "namespace") != "lookout" {
		t.Errorf("operator ServiceAccount: %v", sa["metadata"])
	}
	dep := op["deployment"]
	if dep.get("spec", "replicas") != 2.0 {
		t.Errorf("operator replicas = %v, want 2", dep.get("spec", "replicas"))
	}
	c := object(dep.get("spec", "template", "spec", "containers", 0).(map[string]any))
	args := c.get("args").([]any)
	for _, want := range []string{"--leader-elect=true", "--config-reloader-image=ghcr.io/lookout-operator/config-reloader:latest", "--metrics-bind-address=:8080"} {
		if !slices.Contains(args, any(want)) {
			t.Errorf("operator args %v lack %s", args, want)
		}
	}
	if img := c.str("image"); img != "ghcr.io/lookout-operator/lookout-operator:latest" {
		t.Errorf("operator image %q", img)
	}
	if dep.str("spec", "template", "spec", "serviceAccountName") != "lookout-operator" {
		t.Errorf("operator pods do not run as the lookout-operator ServiceAccount")
	}
	podLabels := dep.get("spec", "template", "metadata", "labels").(map[string]any)
	if podLabels["app.kubernetes.io/name"] != "lookout-operator" {
		t.Errorf("operator pod labels %v", podLabels)
	}
	for k, v := range dep.get("spec", "selector", "matchLabels").(map[string]any) {
		if podLabels[k] != v {
			t.Errorf("Deployment selector %s=%v does not match its pods", k, v)
		}
	}
	svc := op["service"]
	if svc.str("spec", "ports", 0, "name") != "http-metrics" || svc.get("spec", "ports", 0, "port") != 8080.0 {
		t.Errorf("operator Service ports %v", svc.get("spec", "ports"))
	}
	for k, v := range svc.get("spec", "selector").(map[string]any) {
		if podLabels[k] != v {
			t.Errorf("operator Service selector %s=%v does not match the pods", k, v)
		}
	}
	sm := op["serviceMonitor"]
	for k, v := range sm.get("spec", "selector", "matchLabels").(map[string]any) {
		if svc.get("metadata", "labels").(map[string]any)[k] != v {
			t.Errorf("operator ServiceMonitor selector %s=%v does not match the Service", k, v)
		}
	}
	if sm.str("spec", "endpoints", 0, "port") != "http-metrics" || sm.get("spec", "endpoints", 0, "honorLabels") != true {
		t.Errorf("operator ServiceMonitor endpoint %v: want port http-metrics with honorLabels", sm.get("spec", "endpoints", 0))
	}

	prom := s["prometheus"]["prometheus"]
	rule := s["mixin"]["prometheusRule"]
	for k, v := range prom.get("spec", "ruleSelector", "matchLabels").(map[string]any) {
		if rule.get("metadata", "labels").(map[string]any)[k] != v {
			t.Errorf("the Prometheus ruleSelector %s=%v does not select the mixin's PrometheusRule", k, v)
		}
	}
	m := loadMixin(t)
	var groups []string
	for _, g := range rule.get("spec", "groups").([]any) {
		groups = append(groups, g.(map[string]any)["name"].(string))
	}
	// The stack ships every group of the standalone mixin (it has no Prometheus mixin that
	// would make the lookout-prometheus group a duplicate).
	var want []string
	for _, g := range append(append([]ruleGroup{}, m.Alerts.Groups...), m.Rules.Groups...) {
		want = append(want, g.Name)
	}
	if !slices.Equal(groups, want) {
		t.Errorf("PrometheusRule groups %v, want the mixin's %v", groups, want)
	}
	if prom.str("spec", "serviceAccountName") != s["prometheus"]["serviceAccount"].str("metadata", "name") {
		t.Errorf("Prometheus does not run as its ServiceAccount")
	}
	am := s["alertmanager"]
	if prom.str("spec", "alerting", "alertmanagers", 0, "name") != am["service"].str("metadata", "name") {
		t.Errorf("Prometheus sends alerts to %q, not the Alertmanager Service %q",
			prom.str("spec", "alerting", "alertmanagers", 0, "name"), am["service"].str("metadata", "name"))
	}
	if am["secret"].str("metadata", "name") != "alertmanager-"+am["alertmanager"].str("metadata", "name") {
		t.Errorf("Alertmanager config Secret %q is not alertmanager-<name>", am["secret"].str("metadata", "name"))
	}
	var amConfig map[string]any
	if err := yaml.Unmarshal([]byte(am["secret"].str("stringData", "alertmanager.yaml")), &amConfig); err != nil || amConfig["route"] == nil {
		t.Errorf("alertmanager.yaml does not parse to a config with a route: %v", err)
	}

	if len(s["dashboards"]) != len(m.Dashboards) {
		t.Errorf("%d dashboard ConfigMaps for %d dashboards", len(s["dashboards"]), len(m.Dashboards))
	}
	for name, cm := range s["dashboards"] {
		if cm.get("metadata", "labels").(map[string]any)["grafana_dashboard"] != "1" {
			t.Errorf("dashboard ConfigMap %s lacks the grafana_dashboard label", name)
		}
		data := cm.get("data").(map[string]any)
		if len(data) != 1 {
			t.Errorf("dashboard ConfigMap %s holds %d files", name, len(data))
		}
		for file, content := range data {
			var got any
			if err := json.Unmarshal([]byte(content.(string)), &got); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			wantB, _ := json.Marshal(m.Dashboards[file])
			var want any
			_ = json.Unmarshal(wantB, &want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("ConfigMap %s: %s differs from the mixin's dashboard", name, file)
			}
		}
	}
}

// TestStackValues checks that one values object moves everything: a new namespace and
// version reach every namespaced object, the RBAC subjects and the images, and mixin
// overrides reach the PrometheusRule.
func TestStackValues(t *testing.T) {
	s := evaluateStack(t, `{
		common+: { namespace: 'monitoring', version: 'v1.2.3' },
		operator+: { replicas: 3 },
		mixin+: { operatorSelector: 'job="lookout"' },
	}`)
	for comp, objs := range s {
		for name, o := range objs {
			if ns := o.str("metadata", "namespace"); ns != "" && ns != "monitoring" {
				t.Errorf("%s %s is in namespace %q, want monitoring", comp, name, ns)
			}
			if subjects, ok := o.get("subjects").([]any); ok {
				for _, sub := range subjects {
					if sub.(map[string]any)["namespace"] != "monitoring" {
						t.Errorf("%s %s binds a subject in %v", comp, name, sub)
					}
				}
			}
		}
	}
	if s["setup"]["namespace"].str("metadata", "name") != "monitoring" {
		t.Errorf("namespace object not renamed")
	}
	dep := s["operator"]["deployment"]
	if dep.get("spec", "replicas") != 3.0 || dep.str("spec", "template", "spec", "containers", 0, "image") != "ghcr.io/lookout-operator/lookout-operator:v1.2.3" {
		t.Errorf("operator replicas/image not taken from values: %v %v", dep.get("spec", "replicas"), dep.str("spec", "template", "spec", "containers", 0, "image"))
	}
	if !slices.Contains(dep.get("spec", "template", "spec", "containers", 0, "args").([]any), any("--config-reloader-image=ghcr.io/lookout-operator/config-reloader:v1.2.3")) {
		t.Errorf("config-reloader image not taken from the version")
	}
	if am := s["prometheus"]["prometheus"].str("spec", "alerting", "alertmanagers", 0, "namespace"); am != "monitoring" {
		t.Errorf("Prometheus looks for the Alertmanager in %q", am)
	}
	b, _ := json.Marshal(s["mixin"]["prometheusRule"])
	if strings.Contains(string(b), `job=\"lookout-operator\"`) || !strings.Contains(string(b), `job=\"lookout\"`) {
		t.Errorf("mixin overrides did not reach the PrometheusRule")
	}
}
