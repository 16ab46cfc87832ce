package rules

import (
	"errors"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// EnforceNamespaceLabel returns a copy of spec in which every rule carries the label
// label=namespace and every vector and range selector of every expression (including
// those inside subqueries and function arguments) matches label="namespace". A matcher on
// label that the user wrote, of any kind (=, !=, =~, !~), is replaced. The expressions
// are rewritten on the PromQL syntax tree and printed back with Prometheus's printer, so
// the result is in Prometheus's canonical formatting (comments are dropped). spec is not
// modified. It fails on an empty or invalid label name and on an expression that does not
// parse; validate first.
func EnforceNamespaceLabel(spec monitoringv1.PrometheusRuleSpec, label, namespace string) (monitoringv1.PrometheusRuleSpec, error) {
	if label == "" {
		return spec, errors.New("enforcing namespace label: the label name is empty")
	}
	if !model.UTF8Validation.IsValidLabelName(label) || label == model.MetricNameLabel {
		return spec, fmt.Errorf("enforcing namespace label: invalid label name %q", label)
	}
	out := *spec.DeepCopy()
	for gi := range out.Groups {
		g := &out.Groups[gi]
		for ri := range g.Rules {
			r := &g.Rules[ri]
			expr, err := enforceExpr(r.Expr.String(), label, namespace)
			if err != nil {
				return spec, fmt.Errorf("enforcing namespace label on spec.groups[%d].rules[%d] (group %q): %w", gi, ri, g.Name, err)
			}
			r.Expr = intstr.FromString(expr)
			if r.Labels == nil {
				r.Labels = map[string]string{}
			}
			r.Labels[label] = namespace
		}
	}
	return out, nil
}

// enforceExpr parses expr, sets the namespace matcher on every selector and prints it.
func enforceExpr(expr, label, namespace string) (string, error) {
	root, err := permissiveParser.ParseExpr(expr)
	if err != nil {
		return "", fmt.Errorf("parsing expression: %w", err)
	}
	parser.Inspect(root, func(node parser.Node, _ []parser.Node) error {
		if vs, ok := node.(*parser.VectorSelector); ok {
			vs.LabelMatchers = enforceMatchers(vs.LabelMatchers, label, namespace)
		}
		return nil
	})
	return root.String(), nil
}

// enforceMatchers drops every matcher on label and appends label="namespace".
func enforceMatchers(ms []*labels.Matcher, label, namespace string) []*labels.Matcher {
	out := make([]*labels.Matcher, 0, len(ms)+1)
	for _, m := range ms {
		if m.Name != label {
			out = append(out, m)
		}
	}
	return append(out, labels.MustNewMatcher(labels.MatchEqual, label, namespace))
}
