package jsonnet

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lookout-operator/lookout/test/jsonnet/render"
)

// mixin is the evaluated mixin with its default configuration.
type mixin struct {
	Alerts     ruleFile                  `json:"alerts"`
	Rules      ruleFile                  `json:"rules"`
	Dashboards map[string]map[string]any `json:"dashboards"`
}

type ruleFile struct {
	Groups []ruleGroup `json:"groups"`
}

type ruleGroup struct {
	Name  string `json:"name"`
	Rules []rule `json:"rules"`
}

type rule struct {
	Alert       string            `json:"alert,omitempty"`
	Record      string            `json:"record,omitempty"`
	Expr        string            `json:"expr"`
	For         string            `json:"for,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

var (
	rootOnce sync.Once
	rootDir  string
	rootErr  error

	mixinOnce sync.Once
	mixinVal  *mixin
	mixinErr  error
)

func repoRoot(t testing.TB) string {
	t.Helper()
	rootOnce.Do(func() { rootDir, rootErr = render.RepoRoot() })
	if rootErr != nil {
		t.Fatal(rootErr)
	}
	return rootDir
}

// mixinSnippet evaluates the mixin with the _config overrides given as jsonnet.
func mixinSnippet(overrides string) string {
	return fmt.Sprintf(`local m = (import 'mixin/mixin.libsonnet') + { _config+:: %s };
{ alerts: m.prometheusAlerts, rules: m.prometheusRules, dashboards: m.grafanaDashboards }`, overrides)
}

// loadMixin evaluates the mixin with its defaults, once.
func loadMixin(t testing.TB) *mixin {
	t.Helper()
	root := repoRoot(t)
	mixinOnce.Do(func() {
		m := &mixin{}
		mixinErr = render.EvaluateSnippet(root, mixinSnippet("{}"), m)
		mixinVal = m
	})
	if mixinErr != nil {
		t.Fatal(mixinErr)
	}
	return mixinVal
}

// allRules returns the alerting and recording rules together.
func (m *mixin) allRules() []rule {
	var out []rule
	for _, f := range []ruleFile{m.Alerts, m.Rules} {
		for _, g := range f.Groups {
			out = append(out, g.Rules...)
		}
	}
	return out
}

// ruleFileJSON is the alerts and recording rules as one Prometheus rule file.
func (m *mixin) ruleFileJSON(t testing.TB) []byte {
	t.Helper()
	b, err := json.Marshal(ruleFile{Groups: append(append([]ruleGroup{}, m.Alerts.Groups...), m.Rules.Groups...)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// panel is the part of a Grafana panel the tests look at.
type panel struct {
	ID          int    `json:"id"`
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Datasource  struct {
		UID string `json:"uid"`
	} `json:"datasource"`
	GridPos struct {
		H, W, X, Y int
	} `json:"gridPos"`
	FieldConfig struct {
		Defaults struct {
			Unit string `json:"unit"`
		} `json:"defaults"`
	} `json:"fieldConfig"`
	Targets []struct {
		Expr       string `json:"expr"`
		RefID      string `json:"refId"`
		Datasource struct {
			UID string `json:"uid"`
		} `json:"datasource"`
	} `json:"targets"`
}

type variable struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Query      any    `json:"query"`
	IncludeAll bool   `json:"includeAll"`
	AllValue   string `json:"allValue"`
	Hide       int    `json:"hide"`
}

type dashboard struct {
	UID        string  `json:"uid"`
	Title      string  `json:"title"`
	Panels     []panel `json:"panels"`
	Templating struct {
		List []variable `json:"list"`
	} `json:"templating"`
}

// dashboards decodes the mixin's dashboards, keyed by file name.
func (m *mixin) dashboards(t testing.TB) map[string]dashboard {
	t.Helper()
	out := map[string]dashboard{}
	for file, raw := range m.Dashboards {
		b, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		var d dashboard
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		out[file] = d
	}
	return out
}

// runbookPath maps a runbook_url to the file in the repository it points at.
func runbookPath(root, url string) (string, bool) {
	const prefix = "https://github.com/lookout-operator/lookout/blob/main/"
	if !strings.HasPrefix(url, prefix+"Documentation/runbooks/") {
		return "", false
	}
	return filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(url, prefix))), true
}

// toolPath returns a binary from the repository's bin/ that `make tools` builds.
func toolPath(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(repoRoot(t), "bin", name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s not found: run `make tools` first (%v)", p, err)
	}
	return p
}
