package rules

import (
	"testing"
)

func TestEnforceNamespaceLabelExpressions(t *testing.T) {
	cases := []struct{ in, want string }{
		{`up`, `up{namespace="team-a"}`},
		{`up{job="node"} == 0`, `up{job="node",namespace="team-a"} == 0`},
		{`rate(http_requests_total[5m])`, `rate(http_requests_total{namespace="team-a"}[5m])`},
		{`sum by (job) (rate(a[5m])) / on (job) group_left () sum by (job) (b)`,
			`sum by (job) (rate(a{namespace="team-a"}[5m])) / on (job) group_left () sum by (job) (b{namespace="team-a"})`},
		// Conflicting matchers of every kind are replaced.
		{`up{namespace="other"}`, `up{namespace="team-a"}`},
		{`up{namespace!="team-a",job="x"}`, `up{job="x",namespace="team-a"}`},
		{`up{namespace=~".+"} or down{namespace!~"x"}`, `up{namespace="team-a"} or down{namespace="team-a"}`},
		// Subqueries, offsets, @ and nested calls.
		{`max_over_time(rate(a[1m])[10m:1m] offset 5m)`, `max_over_time(rate(a{namespace="team-a"}[1m])[10m:1m] offset 5m)`},
		{`a @ 100`, `a{namespace="team-a"} @ 100.000`},
		{`absent(a)`, `absent(a{namespace="team-a"})`},
		{`label_replace(a, "x", "$1", "y", "(.*)")`, `label_replace(a{namespace="team-a"}, "x", "$1", "y", "(.*)")`},
		{`{__name__=~"a|b"}`, `{__name__=~"a|b",namespace="team-a"}`},
		{`{"my.metric"}`, `{__name__="my.metric",namespace="team-a"}`},
		// No selector: nothing to change.
		{`vector(1)`, `vector(1)`},
		{`1`, `1`},
		// Functions every supported version may use still print.
		{`holt_winters(a[5m], 0.5, 0.5)`, `holt_winters(a{namespace="team-a"}[5m], 0.5, 0.5)`},
		{`sort_by_label(a, "x")`, `sort_by_label(a{namespace="team-a"}, "x")`},
	}
	for _, c := range cases {
		spec := specFrom(t, `groups: [{name: g, rules: [{record: r, expr: 'placeholder'}]}]`)
		spec.Groups[0].Rules[0].Expr = intOrString(c.in)
		out, err := EnforceNamespaceLabel(spec, "namespace", "team-a")
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := out.Groups[0].Rules[0].Expr.String(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
		if spec.Groups[0].Rules[0].Expr.String() != c.in {
			t.Errorf("%s: the input spec was modified", c.in)
		}
	}
}

func TestEnforceNamespaceLabelRuleLabels(t *testing.T) {
	spec := specFrom(t, `groups:
- name: g
  rules:
  - {alert: A, expr: up, labels: {namespace: spoofed, severity: page}}
  - {record: r, expr: up}
- name: h
  rules:
  - {alert: B, expr: "1"}
`)
	out, err := EnforceNamespaceLabel(spec, "namespace", "team-a")
	if err != nil {
		t.Fatal(err)
	}
	for gi, g := range out.Groups {
		for ri, r := range g.Rules {
			if r.Labels["namespace"] != "team-a" {
				t.Errorf("groups[%d].rules[%d] labels = %v, want namespace=team-a", gi, ri, r.Labels)
			}
		}
	}
	if out.Groups[0].Rules[0].Labels["severity"] != "page" {
		t.Error("other labels were lost")
	}
	if spec.Groups[0].Rules[0].Labels["namespace"] != "spoofed" || spec.Groups[0].Rules[1].Labels != nil {
		t.Error("the input spec was modified")
	}
	// The result is still valid.
	if ps := Validate(out, ""); len(ps) != 0 {
		t.Errorf("enforced spec is invalid: %v", Problems(ps))
	}
}

func TestEnforceNamespaceLabelErrors(t *testing.T) {
	spec := specFrom(t, alert(`expr: "sum("`))
	if _, err := EnforceNamespaceLabel(spec, "namespace", "a"); err == nil ||
		err.Error() != `enforcing namespace label on spec.groups[0].rules[0] (group "g"): parsing expression: 1:5: parse error: unclosed left parenthesis` {
		t.Errorf("bad expression: error = %v", err)
	}
	ok := specFrom(t, alert(`expr: up`))
	for _, label := range []string{"", "__name__"} {
		if _, err := EnforceNamespaceLabel(ok, label, "a"); err == nil {
			t.Errorf("label %q accepted", label)
		}
	}
}
