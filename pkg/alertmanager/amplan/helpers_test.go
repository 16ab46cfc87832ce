package amplan

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// toYAML renders v the way the golden files store it.
func toYAML(t *testing.T, v any) []byte {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatalf("encoding: %v", err)
	}
	return b
}

// golden compares got with testdata/<name>.golden, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	goldensUsed.Add(name + ".golden")
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s (run go test ./pkg/alertmanager/amplan -update to create it): %v", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the output; run go test ./pkg/alertmanager/amplan -update and review the diff\n--- got:\n%s", path, got)
	}
}
