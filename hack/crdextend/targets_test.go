package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// miniCRD is the shape controller-gen writes, cut down to what the extension touches.
const miniCRD = `---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servicemonitors.monitoring.coreos.com
spec:
  group: monitoring.coreos.com
  names:
    kind: ServiceMonitor
    plural: servicemonitors
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          status:
            properties:
              bindings:
                items:
                  properties:
                    conditions:
                      items:
                        properties:
                          type:
                            enum:
                            - Accepted
                            minLength: 1
                            type: string
                          unrelated:
                            enum:
                            - Other
                            - Accepted
                            type: string
                        type: object
                      type: array
                  type: object
                type: array
            type: object
        type: object
    served: true
    storage: true
    subresources:
      status: {}
`

func decode(t *testing.T, b []byte) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	var c apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(b, &c); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return &c
}

func TestTargetsExtension(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"monitoring.coreos.com_servicemonitors.yaml", "monitoring.coreos.com_podmonitors.yaml", "monitoring.coreos.com_probes.yaml", "monitoring.coreos.com_scrapeconfigs.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(miniCRD), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved := extensions
	defer func() { extensions = saved }()
	var mine []extension
	for _, e := range extensions {
		if e.name == "targets" {
			mine = append(mine, e)
		}
	}
	extensions = mine
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(filepath.Join(dir, "monitoring.coreos.com_servicemonitors.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	c := decode(t, first)
	v := c.Spec.Versions[0]
	if len(v.AdditionalPrinterColumns) != 1 {
		t.Fatalf("columns %+v", v.AdditionalPrinterColumns)
	}
	col := v.AdditionalPrinterColumns[0]
	if col.Name != "Targets" || col.Type != "string" || col.JSONPath != `.status.bindings[0].conditions[?(@.type=="TargetsHealthy")].message` {
		t.Fatalf("column %+v", col)
	}
	typ := v.Schema.OpenAPIV3Schema.Properties["status"].Properties["bindings"].Items.Schema.Properties["conditions"].Items.Schema.Properties["type"]
	if len(typ.Enum) != 2 || string(typ.Enum[0].Raw) != `"Accepted"` || string(typ.Enum[1].Raw) != `"TargetsHealthy"` {
		t.Fatalf("condition type enum %s", typ.Enum)
	}
	// Only the enum of the condition type's list, where Accepted comes... wherever it is.
	other := v.Schema.OpenAPIV3Schema.Properties["status"].Properties["bindings"].Items.Schema.Properties["conditions"].Items.Schema.Properties["unrelated"]
	if len(other.Enum) != 3 {
		t.Fatalf("every enum holding Accepted gets the value: %s", other.Enum)
	}
	// The layout is controller-gen's and the edit minimal: the version item gains the
	// column, the enum one line.
	if !strings.Contains(string(first), "  - additionalPrinterColumns:\n    - description: Targets up of the first Prometheus that selects the object (TargetsHealthy condition)\n      jsonPath: .status.bindings[0].conditions[?(@.type==\"TargetsHealthy\")].message\n      name: Targets\n      type: string\n    name: v1\n") {
		t.Fatalf("unexpected layout:\n%s", first)
	}
	if !strings.Contains(string(first), "                            - Accepted\n                            - TargetsHealthy\n                            minLength: 1\n") {
		t.Fatalf("unexpected enum layout:\n%s", first)
	}
	// Idempotent.
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(dir, "monitoring.coreos.com_servicemonitors.yaml"))
	if string(second) != string(first) {
		t.Fatalf("a second run changed the file:\n%s", second)
	}
}

func TestAddPrinterColumnAppendsToExistingList(t *testing.T) {
	in := strings.Replace(miniCRD, "  - name: v1\n", "  - additionalPrinterColumns:\n    - jsonPath: .spec.version\n      name: Version\n      type: string\n    name: v1\n", 1)
	out, err := addPrinterColumn([]byte(in), targetsColumn)
	if err != nil {
		t.Fatal(err)
	}
	cols := decode(t, out).Spec.Versions[0].AdditionalPrinterColumns
	if len(cols) != 2 || cols[0].Name != "Version" || cols[1].Name != "Targets" {
		t.Fatalf("columns %+v", cols)
	}
	again, _ := addPrinterColumn(out, targetsColumn)
	if string(again) != string(out) {
		t.Fatal("not idempotent")
	}
}

func TestAddEnumValueNeedsTheEnum(t *testing.T) {
	if _, err := addEnumValue([]byte("a:\n- Accepted\n"), "Accepted", "X"); err == nil {
		t.Fatal("want an error when no enum holds the value")
	}
}
