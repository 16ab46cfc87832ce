package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

const sample = `spec:
  versions:
  - additionalPrinterColumns:
    - description: The version of Prometheus
      jsonPath: .spec.version
      name: Version
      type: string
    - jsonPath: .status.paused
      name: Paused
      priority: 1
      type: boolean
    name: v1
    schema:
      openAPIV3Schema:
        type: object
`

func TestExtendInsertsOnlyLines(t *testing.T) {
	cols := []column{{Name: "Config Loaded", Type: "string", JSONPath: ".status.conditions[?(@.type == 'ConfigLoaded')].status", Description: "Whether"}}
	got, err := extend(sample, cols)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(sample, "    name: v1\n", `    - description: Whether
      jsonPath: .status.conditions[?(@.type == 'ConfigLoaded')].status
      name: Config Loaded
      type: string
    name: v1
`, 1)
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, err := extend(got, cols)
	if err != nil || again != got {
		t.Errorf("a second run changed the text (%v):\n%s", err, again)
	}
	if _, err := extend("kind: Foo\n", cols); err == nil {
		t.Error("a file without printer columns was accepted")
	}
}

// The checked-in CRDs are extended (make crds ran crdextend) and still parse, with the
// columns where the extensions put them.
func TestCheckedInCRDsExtended(t *testing.T) {
	for file, cols := range extensions {
		for _, dir := range []string{"../../example/crds", "../../charts/lookout/crds"} {
			b, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			if out, err := extend(string(b), cols); err != nil || out != string(b) {
				t.Errorf("%s/%s is not extended: run make crds (%v)", dir, file, err)
			}
			var crd apiextensionsv1.CustomResourceDefinition
			if err := yaml.UnmarshalStrict(b, &crd); err != nil {
				t.Fatalf("%s/%s: %v", dir, file, err)
			}
			for _, v := range crd.Spec.Versions {
				for _, c := range cols {
					found := false
					for _, pc := range v.AdditionalPrinterColumns {
						found = found || (pc.Name == c.Name && pc.JSONPath == c.JSONPath && pc.Type == c.Type)
					}
					if !found {
						t.Errorf("%s/%s version %s: no printer column %q", dir, file, v.Name, c.Name)
					}
				}
			}
		}
	}
}
