package promcfg_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/test/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// goldenContent is the config followed by comments listing warnings and TLS assets, so a
// golden shows everything a case produced and still loads as a Prometheus config.
func goldenContent(r *promcfg.Result) []byte {
	var b strings.Builder
	b.Write(r.Config)
	for _, w := range r.Warnings {
		b.WriteString("# warning: " + w + "\n")
	}
	names := make([]string, 0, len(r.TLSAssets))
	for n := range r.TLSAssets {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.WriteString("# tls asset: " + n + "\n")
	}
	return []byte(b.String())
}

func TestGolden(t *testing.T) {
	var names []string
	for _, c := range goldenCases() {
		names = append(names, c.name)
	}
	goldentest.CheckCases(t, "testdata", names)
	for _, c := range goldenCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := generateAll(c)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			for _, v := range res.Verdicts {
				if !v.Used() {
					t.Fatalf("%s %s/%s rejected: %s", v.Kind, v.Namespace, v.Name, v.Message)
				}
			}
			got := goldenContent(res)
			path := filepath.Join("testdata", c.name+".golden")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./pkg/prometheus/promcfg -update to create it)", err)
			}
			if string(got) != string(want) {
				t.Errorf("output differs from %s (run with -update after checking the change):\n%s", path, goldentest.FirstDiff(string(want), string(got)))
			}
		})
	}
}

// TestGoldenFilesLoad loads every golden with Prometheus's own loader, after the
// expansion the config-reloader performs.
func TestGoldenFilesLoad(t *testing.T) {
	files, err := filepath.Glob("testdata/*.golden")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("expected well over 100 golden files, found %d", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		expanded := strings.NewReplacer("$(SHARD)", "1", "$(POD_NAME)", "prometheus-k8s-0").Replace(string(data))
		for _, cfg := range []string{string(data), expanded} {
			if err := promcfg.Validate([]byte(cfg)); err != nil {
				t.Errorf("%s: %v", f, err)
			}
		}
	}
}
