package lint

import (
	"slices"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/lookout-operator/lookout/pkg/rules"
)

func init() {
	register(&Check{
		Name:     "rule-enforced-label",
		Severity: Warning,
		Summary:  "a rule sets or matches the label a selecting Prometheus's enforcedNamespaceLabel overwrites with the rule's namespace",
		Run:      ruleEnforcedLabel,
	})
}

func ruleEnforcedLabel(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		var enforced []string
		for _, p := range in.SelectedBy(monitoringv1.PrometheusRuleKind, r.PR.Namespace, r.PR.Name) {
			if l := rules.EnforcementOf(p).LabelFor(r.PR); l != "" && !slices.Contains(enforced, l) {
				enforced = append(enforced, l)
			}
		}
		for _, l := range enforced {
			if v, ok := r.Rule.Labels[l]; ok && v != r.PR.Namespace {
				out = append(out, r.finding("label %s=%q is overwritten with %q: the selecting Prometheus enforces %s (enforcedNamespaceLabel)", l, v, r.PR.Namespace, l))
			}
			e := r.expr()
			if e == nil {
				continue
			}
			parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
				vs, ok := n.(*parser.VectorSelector)
				if !ok {
					return nil
				}
				for _, m := range vs.LabelMatchers {
					if m.Name == l && (m.Type != labels.MatchEqual || m.Value != r.PR.Namespace) {
						out = append(out, r.finding("the matcher %s in %s is replaced by %s=%q: the selecting Prometheus enforces %s (enforcedNamespaceLabel)", m.String(), vs.String(), l, r.PR.Namespace, l))
					}
				}
				return nil
			})
		}
	})
	return out
}
