package main

import (
	"os"
	"path/filepath"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// The Config Loaded column is in the checked-in Prometheus and PrometheusAgent CRDs
// (example/crds and the chart's copy), as make crds leaves them, and a rerun changes
// nothing.
func TestConfigLoadedColumn(t *testing.T) {
	for _, file := range []string{"monitoring.coreos.com_prometheuses.yaml", "monitoring.coreos.com_prometheusagents.yaml"} {
		for _, dir := range []string{"../../example/crds", "../../charts/lookout/crds"} {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if out, err := addPrinterColumn(b, configLoadedColumn); err != nil || string(out) != string(b) {
				t.Errorf("%s/%s lacks the Config Loaded column: run make crds (%v)", dir, file, err)
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.UnmarshalStrict(b, &crd); err != nil {
				t.Fatalf("%s/%s: %v", dir, file, err)
			}
			for _, v := range crd.Spec.Versions {
				found := false
				for _, c := range v.AdditionalPrinterColumns {
					found = found || (c.Name == configLoadedColumn.Name && c.JSONPath == configLoadedColumn.JSONPath && c.Type == "string")
				}
				if !found {
					t.Errorf("%s/%s version %s: no Config Loaded column", dir, file, v.Name)
				}
			}
		}
	}
}
