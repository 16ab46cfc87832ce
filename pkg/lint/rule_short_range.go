package lint

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"
)

// rangeIntervals is how many scrape intervals a range must span at least.
const rangeIntervals = 4

func init() {
	register(&Check{
		Name:     "rule-short-range",
		Severity: Warning,
		Summary:  "rate(), irate(), increase() or *_over_time() reads a range shorter than four scrape intervals of the Prometheus that selects the rule",
		Run:      ruleShortRange,
	})
}

// rangeFunc reports whether a function's range argument must hold several samples.
func rangeFunc(name string) bool {
	return name == "rate" || name == "irate" || name == "increase" || strings.HasSuffix(name, "_over_time")
}

func ruleShortRange(in *Inputs) []Finding {
	var out []Finding
	eachRule(in, func(r ruleRef) {
		e := r.expr()
		if e == nil {
			return
		}
		interval := ScrapeInterval(in.SelectedBy(monitoringv1.PrometheusRuleKind, r.PR.Namespace, r.PR.Name))
		min := rangeIntervals * interval
		parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
			c, ok := n.(*parser.Call)
			if !ok || !rangeFunc(c.Func.Name) {
				return nil
			}
			for _, a := range c.Args {
				if m, ok := a.(*parser.MatrixSelector); ok && m.Range < min {
					out = append(out, r.finding("%s(%s) reads %s, less than %d scrape intervals of %s: use at least [%s]",
						c.Func.Name, m.VectorSelector.String(), model.Duration(m.Range), rangeIntervals, model.Duration(interval), model.Duration(min)))
				}
			}
			return nil
		})
	})
	return out
}
