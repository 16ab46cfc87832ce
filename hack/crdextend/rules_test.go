package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRulesExtension: the PrometheusRule CRD accepts the RulesHealthy condition and
// shows it in a Rules column; a second run changes nothing.
func TestRulesExtension(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "monitoring.coreos.com_prometheusrules.yaml")
	in := strings.NewReplacer("servicemonitors", "prometheusrules", "ServiceMonitor", "PrometheusRule").Replace(miniCRD)
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	saved := extensions
	defer func() { extensions = saved }()
	var mine []extension
	for _, e := range extensions {
		if e.name == "rules" {
			mine = append(mine, e)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("%d rules extensions", len(mine))
	}
	extensions = mine
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v := decode(t, first).Spec.Versions[0]
	if len(v.AdditionalPrinterColumns) != 1 {
		t.Fatalf("columns %+v", v.AdditionalPrinterColumns)
	}
	if col := v.AdditionalPrinterColumns[0]; col.Name != "Rules" || col.Type != "string" || col.JSONPath != `.status.bindings[0].conditions[?(@.type=="RulesHealthy")].message` {
		t.Fatalf("column %+v", col)
	}
	typ := v.Schema.OpenAPIV3Schema.Properties["status"].Properties["bindings"].Items.Schema.Properties["conditions"].Items.Schema.Properties["type"]
	if len(typ.Enum) != 2 || string(typ.Enum[0].Raw) != `"Accepted"` || string(typ.Enum[1].Raw) != `"RulesHealthy"` {
		t.Fatalf("condition type enum %s", typ.Enum)
	}
	if err := run(dir); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(file); string(second) != string(first) {
		t.Fatalf("a second run changed the file:\n%s", second)
	}
}
