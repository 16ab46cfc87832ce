package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/promcfg"
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
