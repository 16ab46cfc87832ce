package main

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

func runRender(args ...string) (stdout, stderr string, code int) {
	var out, errb bytes.Buffer
	code = renderCmd(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestRenderValid(t *testing.T) {
	out, errs, code := runRender("-f", "testdata/render/manifests.yaml", "--explain")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	if err := promcfg.Validate([]byte(out)); err != nil {
		t.Fatalf("rendered config does not load: %v", err)
	}
	for _, want := range []string{"job_name: serviceMonitor/apps/api/0", "credentials: s3cr3t", "prometheus: monitoring/main"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "other-team") || strings.Contains(out, "elsewhere") {
		t.Errorf("unselected monitors rendered:\n%s", out)
	}
	for _, want := range []string{
		"ServiceMonitor apps/api is used",
		"ServiceMonitor apps/other-team is not used: NotSelectedByLabels",
		`ServiceMonitor sandbox/elsewhere is not used: NamespaceNotSelected: namespace "sandbox" does not match`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("explanation lacks %q:\n%s", want, errs)
		}
	}
}

func TestRenderRejectedMonitorExitsOne(t *testing.T) {
	out, errs, code := runRender("-f", "testdata/render/manifests.yaml", "-f", "testdata/render/broken-monitor.yaml")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(errs, "ServiceMonitor apps/broken rejected: endpoints[0]: bearerTokenSecret: secret apps/missing: not found") {
		t.Errorf("stderr:\n%s", errs)
	}
	if !strings.Contains(out, "serviceMonitor/apps/api/0") {
		t.Error("the good monitor is missing from the output")
	}
}

func TestRenderUnknownFieldNamesTheObject(t *testing.T) {
	_, errs, code := runRender("-f", "testdata/render/manifests.yaml", "-f", "testdata/render/typo.yaml")
	if code != 1 || !strings.Contains(errs, "ServiceMonitor apps/typo") || !strings.Contains(errs, "endpoint") {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
}

func TestRenderNoPrometheus(t *testing.T) {
	_, errs, code := runRender("-f", "testdata/render/typo.yaml", "--prometheus", "x")
	if code != 1 || errs == "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if _, _, code := runRender(); code != 2 {
		t.Fatalf("no -f: exit %d, want 2", code)
	}
}

func TestPrintCRDs(t *testing.T) {
	var b bytes.Buffer
	if code := printCRDs(&b); code != 0 {
		t.Fatal(code)
	}
	for _, kind := range []string{"Prometheus", "ServiceMonitor", "PodMonitor", "PrometheusRule", "Probe", "ScrapeConfig", "Alertmanager", "AlertmanagerConfig", "PrometheusAgent", "ThanosRuler"} {
		if !strings.Contains(b.String(), "    kind: "+kind+"\n") {
			t.Errorf("CRD for %s missing", kind)
		}
	}
}

// render checks PrometheusRules as the controller does: a broken rule exits 1 with the
// reason; objects render does not use are named as skipped.
func TestRenderChecksRules(t *testing.T) {
	_, errs, code := runRender("-f", "testdata/render/rules.yaml", "--prometheus", "monitoring/rules", "--explain")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errs)
	}
	for _, want := range []string{
		"PrometheusRule apps/broken rejected: ",
		"PrometheusRule apps/good is used",
		"PrometheusRule apps/unselected is not used: NotSelectedByLabels",
		"skipped: Deployment apps/api",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Count(errs, "rejected") != 1 {
		t.Errorf("want exactly one rejection:\n%s", errs)
	}
}

// TestRenderObjects prints the whole plan: every object the operator writes for the
// Prometheus, in write order, with the operator's --labels, and the config Secret holding
// the configuration render prints.
func TestRenderObjects(t *testing.T) {
	cfg, errs, code := runRender("-f", "testdata/render/manifests.yaml")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	out, errs, code := runRender("-f", "testdata/render/manifests.yaml", "--objects", "--", "--labels=team=obs", "--reloader-watch-api")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var got []string
	for _, doc := range strings.Split(out, "\n---\n") {
		u := map[string]any{}
		if err := yaml.Unmarshal([]byte(doc), &u); err != nil {
			t.Fatalf("document does not parse: %v\n%s", err, doc)
		}
		obj := unstructured.Unstructured{Object: u}
		got = append(got, obj.GetKind()+" "+obj.GetNamespace()+"/"+obj.GetName())
		if obj.GetLabels()["team"] != "obs" {
			t.Errorf("%s lacks the operator's --labels: %v", got[len(got)-1], obj.GetLabels())
		}
		if obj.GetKind() == "Secret" && obj.GetName() == "prometheus-main" {
			gz, _, _ := unstructured.NestedString(u, "data", "prometheus.yaml.gz")
			raw, err := base64.StdEncoding.DecodeString(gz)
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if string(plain) != cfg {
				t.Errorf("the config Secret holds another configuration than render prints")
			}
		}
	}
	want := []string{
		"Secret monitoring/prometheus-main-tls-assets-0",
		"Secret monitoring/prometheus-main",
		"Secret monitoring/prometheus-main-web-config",
		"Secret monitoring/prometheus-main-thanos-prometheus-http-client-file",
		"ConfigMap monitoring/prometheus-main-rulefiles-0",
		"Service monitoring/prometheus-operated",
		"Role monitoring/prometheus-main-config-reloader",
		"RoleBinding monitoring/prometheus-main-config-reloader",
		"StatefulSet monitoring/prometheus-main",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, errs, code := runRender("-f", "testdata/render/manifests.yaml", "--", "--no-such-flag"); code != 2 || !strings.Contains(errs, "no-such-flag") {
		t.Errorf("a bad operator flag: exit %d, stderr %s", code, errs)
	}
}

// TestRenderObjectsAlertmanagerThanosRuler: --objects prints the plans of Alertmanagers
// (their configuration generated from the config Secret and the selected
// AlertmanagerConfigs) and ThanosRulers (their rule ConfigMaps from the selected
// PrometheusRules); --alertmanager and --thanos-ruler pick one.
func TestRenderObjectsAlertmanagerThanosRuler(t *testing.T) {
	out, errs, code := runRender("-f", "testdata/render/instances.yaml", "--objects", "--explain", "--", "--labels=team=obs", "--reloader-watch-api")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var got []string
	for _, doc := range strings.Split(out, "\n---\n") {
		u := map[string]any{}
		if err := yaml.Unmarshal([]byte(doc), &u); err != nil {
			t.Fatalf("document does not parse: %v\n%s", err, doc)
		}
		obj := unstructured.Unstructured{Object: u}
		got = append(got, obj.GetKind()+" "+obj.GetNamespace()+"/"+obj.GetName())
		if obj.GetLabels()["team"] != "obs" {
			t.Errorf("%s lacks the operator's --labels: %v", got[len(got)-1], obj.GetLabels())
		}
		data, _, _ := unstructured.NestedStringMap(u, "data")
		switch obj.GetName() {
		case "alertmanager-main-generated":
			raw, err := base64.StdEncoding.DecodeString(data["alertmanager.yaml.gz"])
			if err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(zr)
			if !strings.Contains(string(plain), "apps/api/hook") || strings.Contains(string(plain), "apps/other") {
				t.Errorf("the configuration does not hold the selected AlertmanagerConfig alone:\n%s", plain)
			}
			if data["template.tmpl"] == "" {
				t.Errorf("the config Secret's other keys are not copied: %v", data)
			}
		case "thanos-ruler-ruler-rulefiles-0":
			if len(data) != 1 || !strings.Contains(fmt.Sprint(data), "APIDown") {
				t.Errorf("rule ConfigMap data %v", data)
			}
		}
	}
	want := []string{
		"Secret monitoring/alertmanager-main-tls-assets-0",
		"Secret monitoring/alertmanager-main-generated",
		"Secret monitoring/alertmanager-main-web-config",
		"Secret monitoring/alertmanager-main-cluster-tls-config",
		"Service monitoring/alertmanager-operated",
		"Role monitoring/alertmanager-main-config-reloader",
		"RoleBinding monitoring/alertmanager-main-config-reloader",
		"StatefulSet monitoring/alertmanager-main",
		"ConfigMap monitoring/thanos-ruler-ruler-rulefiles-0",
		"Secret monitoring/thanos-ruler-ruler-tls-assets-0",
		"Secret monitoring/thanos-ruler-ruler-config",
		"Secret monitoring/thanos-ruler-ruler-web-config",
		"Service monitoring/thanos-ruler-operated",
		"StatefulSet monitoring/thanos-ruler-ruler",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("objects:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, w := range []string{"# Alertmanager monitoring/main", "# ThanosRuler monitoring/ruler"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks the header %q", w)
		}
	}
	for _, w := range []string{
		"explain: Alertmanager monitoring/main: AlertmanagerConfig apps/api is used",
		"explain: ThanosRuler monitoring/ruler: PrometheusRule apps/good is used",
	} {
		if !strings.Contains(errs, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errs)
		}
	}

	out, errs, code = runRender("-f", "testdata/render/instances.yaml", "-f", "testdata/render/manifests.yaml", "--objects", "--thanos-ruler", "monitoring/ruler")
	if code != 0 || strings.Contains(out, "alertmanager-main") || strings.Contains(out, "prometheus-main") || !strings.Contains(out, "thanos-ruler-ruler") {
		t.Errorf("--thanos-ruler: exit %d, stderr %s, output:\n%s", code, errs, out)
	}
	if _, _, code := runRender("-f", "testdata/render/instances.yaml", "--alertmanager", "main"); code != 2 {
		t.Errorf("--alertmanager without --objects: exit %d, want 2", code)
	}
	// Without --objects, render reads none of them.
	if _, errs, code := runRender("-f", "testdata/render/manifests.yaml", "-f", "testdata/render/instances.yaml"); code != 0 || !strings.Contains(errs, "skipped: Alertmanager monitoring/main") {
		t.Errorf("without --objects: exit %d, stderr %s", code, errs)
	}
}

// TestRenderObjectsAlertmanagerErrors: a missing spec.alertmanagerConfiguration object is
// reported as the operator reports it.
func TestRenderObjectsAlertmanagerErrors(t *testing.T) {
	dir := t.TempDir()
	f := dir + "/am.yaml"
	if err := os.WriteFile(f, []byte("apiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\nmetadata: {name: a, namespace: m}\nspec:\n  alertmanagerConfiguration: {name: gone}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errs, code := runRender("-f", f, "--objects")
	if code != 1 || !strings.Contains(errs, "error: Alertmanager m/a: spec.alertmanagerConfiguration.name: AlertmanagerConfig m/gone does not exist") {
		t.Errorf("exit %d, stderr %s", code, errs)
	}
}
