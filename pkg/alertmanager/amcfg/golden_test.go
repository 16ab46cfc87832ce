package amcfg_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/prometheus/alertmanager/config"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
	"github.com/lookout-operator/lookout/test/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func TestGolden(t *testing.T) {
	var names []string
	for _, c := range goldenCases() {
		names = append(names, c.name)
	}
	goldentest.CheckCases(t, "testdata", names)
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			res, err := amcfg.Generate(c.input(t))
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			for k, v := range res.Verdicts {
				if !v.Accepted {
					t.Fatalf("%s rejected: %s: %s", k, v.Field, v.Message)
				}
			}
			if len(res.Verdicts) != len(c.configs) {
				t.Fatalf("%d verdicts for %d objects", len(res.Verdicts), len(c.configs))
			}
			got := goldenContent(res)
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./pkg/alertmanager/amcfg -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("output differs from %s (run with -update after checking the change):\n%s", path, goldentest.FirstDiff(string(want), string(got)))
			}
			// The golden itself must be a configuration Alertmanager accepts.
			if _, err := config.Load(string(want)); err != nil {
				t.Errorf("%s does not load: %v", path, err)
			}
		})
	}
}
