package lint

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/promql/parser"
)

// promql parses rule expressions, accepting what any supported Prometheus accepts; an
// expression it refuses is left to the rule validator (the rule-invalid check).
var promql = parser.NewParser(parser.Options{
	EnableExperimentalFunctions: true,
	EnableBinopFillModifiers:    true,
	EnableUnquotedUTF8Names:     true,
})

// ruleRef is one rule of a PrometheusRule, with where it sits.
type ruleRef struct {
	PR    *monitoringv1.PrometheusRule
	Group string
	Index int // in the group
	Rule  monitoringv1.Rule
}

// Alert reports whether the rule is an alerting rule.
func (r ruleRef) Alert() bool { return r.Rule.Alert != "" }

// where names the rule for messages: `alert "X" (group "g", rule 2)`.
func (r ruleRef) where() string {
	if r.Alert() {
		return fmt.Sprintf("alert %q (group %q, rule %d)", r.Rule.Alert, r.Group, r.Index)
	}
	return fmt.Sprintf("record %q (group %q, rule %d)", r.Rule.Record, r.Group, r.Index)
}

// finding is a finding about the PrometheusRule holding r.
func (r ruleRef) finding(format string, args ...any) Finding {
	return at(monitoringv1.PrometheusRuleKind, r.PR.Namespace, r.PR.Name, r.where()+": "+format, args...)
}

// expr parses the rule's expression; nil when it does not parse.
func (r ruleRef) expr() parser.Expr {
	e, err := promql.ParseExpr(r.Rule.Expr.String())
	if err != nil {
		return nil
	}
	return e
}

// eachRule calls f for every rule of every PrometheusRule, in order.
func eachRule(in *Inputs, f func(r ruleRef)) {
	for _, pr := range in.Objects.PrometheusRules {
		for _, g := range pr.Spec.Groups {
			for i, rule := range g.Rules {
				f(ruleRef{PR: pr, Group: g.Name, Index: i, Rule: rule})
			}
		}
	}
}
