package promplan

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// prom returns a minimal Prometheus "k8s" in namespace "monitoring" with muts applied.
func prom(muts ...func(*monitoringv1.Prometheus)) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "Prometheus"},
		ObjectMeta: metav1.ObjectMeta{Name: "k8s", Namespace: "monitoring", Generation: 3},
	}
	for _, m := range muts {
		m(p)
	}
	return p
}

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
		t.Fatalf("reading %s (run go test ./pkg/prometheus/promplan -update to create it): %v", path, err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the output; run go test ./pkg/prometheus/promplan -update and review the diff\n--- got:\n%s", path, got)
	}
}
