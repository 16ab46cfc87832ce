package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSampleCostExtension: with every extension, the monitor CRDs allow SampleCost
// beside Accepted and TargetsHealthy, and show a Samples column after Targets; a second
// run changes nothing.
func TestSampleCostExtension(t *testing.T) {
	dir := t.TempDir()
	files := []string{"monitoring.coreos.com_servicemonitors.yaml", "monitoring.coreos.com_podmonitors.yaml", "monitoring.coreos.com_probes.yaml", "monitoring.coreos.com_scrapeconfigs.yaml"}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(miniCRD), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	saved := extensions
	defer func() { extensions = saved }()
	var mine []extension
	for _, e := range extensions {
		if e.name == "targets" || e.name == "targets-samplecost" {
			mine = append(mine, e)
		}
	}
	if len(mine) != 2 {
		t.Fatalf("%d extensions", len(mine))
	}
	extensions = mine
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		first, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		v := decode(t, first).Spec.Versions[0]
		cols := v.AdditionalPrinterColumns
		if len(cols) != 2 || cols[0].Name != "Targets" || cols[1].Name != "Samples" || cols[1].JSONPath != `.status.bindings[0].conditions[?(@.type=="SampleCost")].message` {
			t.Fatalf("%s: columns %+v", f, cols)
		}
		typ := v.Schema.OpenAPIV3Schema.Properties["status"].Properties["bindings"].Items.Schema.Properties["conditions"].Items.Schema.Properties["type"]
		var enum []string
		for _, e := range typ.Enum {
			enum = append(enum, string(e.Raw))
		}
		if len(enum) != 3 || enum[0] != `"Accepted"` || enum[1] != `"SampleCost"` || enum[2] != `"TargetsHealthy"` {
			t.Fatalf("%s: condition type enum %v", f, enum)
		}
		if err := run(dir); err != nil {
			t.Fatal(err)
		}
		second, _ := os.ReadFile(filepath.Join(dir, f))
		if string(second) != string(first) {
			t.Fatalf("%s: a second run changed the file:\n%s", f, second)
		}
	}
}
