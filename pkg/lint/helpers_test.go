package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lookout-operator/lookout/pkg/manifest"
)

// prometheus is a Prometheus in namespace mon selecting every rule and monitor, with
// extra spec lines.
func prometheus(extra string) string {
	return `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: mon}
spec:
  ruleSelector: {}
  ruleNamespaceSelector: {}
  serviceMonitorSelector: {}
  serviceMonitorNamespaceSelector: {}
  podMonitorSelector: {}
  podMonitorNamespaceSelector: {}
` + extra
}

// promRule is a PrometheusRule namespace/name with one group holding rules (YAML list
// items, indented by four spaces).
func promRule(namespace, name, rules string) string {
	return fmt.Sprintf(`apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata: {name: %s, namespace: %s}
spec:
  groups:
  - name: g
    rules:
%s`, name, namespace, rules)
}

// alert is a rule list item with every annotation, so that only what a test is about
// differs.
func alert(name, expr, extra string) string {
	return fmt.Sprintf(`    - alert: %s
      expr: %s
      annotations: {summary: s, description: d, runbook_url: https://example.com/r}
%s`, name, expr, extra)
}

// docs joins YAML documents.
func docs(d ...string) string { return strings.Join(d, "\n---\n") }

// run lints data (a file named in.yaml) with only the named checks.
func run(t *testing.T, data string, checks ...string) *Result {
	t.Helper()
	objs, err := manifest.Decode([]byte(data), "in.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Lint(objs, map[string]Disabled{"in.yaml": FileDisabled([]byte(data))}, Options{Enable: checks})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkCase is one input and the number of findings one check must make of it.
type checkCase struct {
	name  string
	input string
	want  int
	// contains must appear in the first finding's message.
	contains string
}

func runCases(t *testing.T, check string, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, c.input, check)
			if len(res.Findings) != c.want {
				t.Fatalf("%d findings, want %d: %+v", len(res.Findings), c.want, res.Findings)
			}
			for _, f := range res.Findings {
				if f.Check != check || f.File != "in.yaml" || f.Line == 0 {
					t.Errorf("finding %+v: want check %s at a line of in.yaml", f, check)
				}
			}
			if c.contains != "" && !strings.Contains(res.Findings[0].Message, c.contains) {
				t.Errorf("message %q does not contain %q", res.Findings[0].Message, c.contains)
			}
		})
	}
}
