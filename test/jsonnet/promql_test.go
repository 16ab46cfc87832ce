package jsonnet

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// expression is one PromQL expression of the mixin and where it comes from.
type expression struct {
	where string
	expr  string // with Grafana variables still in it
}

var (
	grafanaVar  = regexp.MustCompile(`\$\{?(\w+)\}?`)
	labelValues = regexp.MustCompile(`^label_values\((.*), *(\w+)\)$`)
	promParser  = parser.NewParser(parser.Options{})
)

// grafanaBuiltins are the variables Grafana defines itself.
var grafanaBuiltins = map[string]string{
	"__rate_interval": "1m",
	"__interval":      "30s",
	"__range":         "1h",
}

// substitute replaces Grafana variables: builtins by durations, the others by values[name]
// or, when not given, by ".*".
func substitute(expr string, values map[string]string) string {
	return grafanaVar.ReplaceAllStringFunc(expr, func(m string) string {
		name := grafanaVar.FindStringSubmatch(m)[1]
		if v, ok := grafanaBuiltins[name]; ok {
			return v
		}
		if v, ok := values[name]; ok {
			return v
		}
		return ".*"
	})
}

// variableSelector returns the series selector of a label_values variable query.
func variableSelector(v variable) (selector, label string, err error) {
	q, ok := v.Query.(string)
	if !ok {
		return "", "", fmt.Errorf("variable %s: query is %T, want a string", v.Name, v.Query)
	}
	m := labelValues.FindStringSubmatch(q)
	if m == nil {
		return "", "", fmt.Errorf("variable %s: %q is not label_values(selector, label)", v.Name, q)
	}
	return m[1], m[2], nil
}

// expressions lists every PromQL expression of the mixin: rules, dashboard targets and
// dashboard variable queries.
func (m *mixin) expressions(t testing.TB) []expression {
	t.Helper()
	var out []expression
	for _, r := range m.allRules() {
		out = append(out, expression{where: "rule " + r.Alert + r.Record, expr: r.Expr})
	}
	for file, d := range m.dashboards(t) {
		for _, v := range d.Templating.List {
			if v.Type != "query" {
				continue
			}
			sel, _, err := variableSelector(v)
			if err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
			out = append(out, expression{where: file + " variable " + v.Name, expr: sel})
		}
		for _, p := range d.Panels {
			for _, tg := range p.Targets {
				out = append(out, expression{where: fmt.Sprintf("%s panel %q target %s", file, p.Title, tg.RefID), expr: tg.Expr})
			}
		}
	}
	slices.SortFunc(out, func(a, b expression) int { return strings.Compare(a.where, b.where) })
	return out
}

// metricNames returns the metric names an expression selects.
func metricNames(e parser.Expr) []string {
	var names []string
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		vs, ok := n.(*parser.VectorSelector)
		if !ok {
			return nil
		}
		name := vs.Name
		for _, m := range vs.LabelMatchers {
			if m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
				name = m.Value
			}
		}
		if name != "" && !slices.Contains(names, name) {
			names = append(names, name)
		}
		return nil
	})
	return names
}

// usedMetrics maps every metric name the mixin uses to where it is used.
func (m *mixin) usedMetrics(t testing.TB) map[string][]string {
	t.Helper()
	used := map[string][]string{}
	for _, e := range m.expressions(t) {
		parsed, err := promParser.ParseExpr(substitute(e.expr, nil))
		if err != nil {
			t.Fatalf("%s: %v", e.where, err)
		}
		for _, n := range metricNames(parsed) {
			used[n] = append(used[n], e.where)
		}
	}
	return used
}

// TestPromQLParses parses every expression of the alerts, recording rules and dashboards
// (Grafana variables substituted) and checks that each selects at least one metric and
// that alerts and rules yield instant vectors.
func TestPromQLParses(t *testing.T) {
	m := loadMixin(t)
	exprs := m.expressions(t)
	if len(exprs) < 100 {
		t.Errorf("only %d expressions", len(exprs))
	}
	for _, e := range exprs {
		parsed, err := promParser.ParseExpr(substitute(e.expr, nil))
		if err != nil {
			t.Errorf("%s: %v\n%s", e.where, err, e.expr)
			continue
		}
		if len(metricNames(parsed)) == 0 {
			t.Errorf("%s selects no metric: %s", e.where, e.expr)
		}
		if strings.HasPrefix(e.where, "rule ") && parsed.Type() != parser.ValueTypeVector {
			t.Errorf("%s yields a %s, want an instant vector", e.where, parsed.Type())
		}
	}
}
