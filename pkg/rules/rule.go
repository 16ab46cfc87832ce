package rules

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// validateRule checks one rule: its durations and version-gated fields here, everything
// else with rulefmt's own rule validation, then the parsed expression. An alert's labels
// and annotations are checked here with rulefmt's rules and messages, because rulefmt
// re-parses every template of every rule; checkTemplate remembers valid ones. ok is false
// when a duration cannot be parsed.
func (v *Validator) validateRule(at location, r *monitoringv1.Rule) (ps []Problem, ok bool) {
	ok = true
	rf := rulefmt.Rule{
		Record: r.Record,
		Alert:  r.Alert,
		Expr:   r.Expr.String(),
	}
	if r.Alert == "" {
		rf.Labels, rf.Annotations = r.Labels, r.Annotations
	} else {
		ps = append(ps, v.checkAlertLabels(at, r)...)
	}
	if r.For != nil {
		d, err := model.ParseDuration(string(*r.For))
		if err != nil {
			ps, ok = append(ps, at.problem("for", err.Error())), false
		}
		rf.For = d
	}
	if r.KeepFiringFor != nil {
		if p, gateOK := v.checkGate(at, "keep_firing_for", gateKeepFiringFor); !gateOK {
			ps = append(ps, p)
		}
		d, err := model.ParseDuration(string(*r.KeepFiringFor))
		if err != nil {
			ps, ok = append(ps, at.problem("keep_firing_for", err.Error())), false
		}
		rf.KeepFiringFor = d
	}

	rec := &recordingParser{Parser: v.parser}
	// rulefmt wants the YAML node of the rule to report line numbers; Lookout has none
	// and reports field paths instead, so it unwraps the errors to drop the positions.
	for _, we := range rf.Validate(rulefmt.RuleNode{}, v.scheme, rec) {
		err := errors.Unwrap(&we)
		if err == nil {
			continue
		}
		for _, f := range classify(v.withHint(err.Error()), r) {
			ps = append(ps, at.problem(f.field, f.message))
		}
	}
	if rec.expr != nil && rec.err == nil {
		ps = append(ps, v.checkExpr(at, rec.expr)...)
	}
	return ps, ok
}

// checkAlertLabels checks an alert's label names and values, annotation names and the
// templates of both, with the messages rulefmt uses.
func (v *Validator) checkAlertLabels(at location, r *monitoringv1.Rule) []Problem {
	ps := v.checkLabels(at, r.Labels)
	for _, k := range slices.Sorted(maps.Keys(r.Labels)) {
		if err := checkTemplate(v.templates, r.Alert, r.Labels[k]); err != nil {
			ps = append(ps, at.problem(labelField("labels", k), "invalid template: "+err.Error()))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(r.Annotations)) {
		if !v.scheme.IsValidLabelName(k) {
			ps = append(ps, at.problem(labelField("annotations", k), "invalid annotation name: "+k))
		}
		if err := checkTemplate(v.templates, r.Alert, r.Annotations[k]); err != nil {
			ps = append(ps, at.problem(labelField("annotations", k), "invalid template: "+err.Error()))
		}
	}
	return ps
}

// recordingParser keeps the expression rulefmt parsed, so that it is parsed only once.
type recordingParser struct {
	parser.Parser
	expr parser.Expr
	err  error
}

func (p *recordingParser) ParseExpr(input string) (parser.Expr, error) {
	p.expr, p.err = p.Parser.ParseExpr(input)
	return p.expr, p.err
}

type fieldMessage struct{ field, message string }

// classify maps a rulefmt rule error to the field it is about. rulefmt's messages are
// fixed strings; an unknown one is attached to the rule itself.
func classify(msg string, r *monitoringv1.Rule) []fieldMessage {
	one := func(field string) []fieldMessage { return []fieldMessage{{field, msg}} }
	switch {
	case strings.HasPrefix(msg, "could not parse expression"), msg == "field 'expr' must be set in rule":
		return one("expr")
	case msg == "invalid field 'annotations' in recording rule":
		return one("annotations")
	case msg == "invalid field 'for' in recording rule":
		return one("for")
	case msg == "invalid field 'keep_firing_for' in recording rule":
		return one("keep_firing_for")
	case strings.HasPrefix(msg, "invalid recording rule name"), strings.HasPrefix(msg, "braces present in the recording rule name"):
		return one("record")
	case strings.HasPrefix(msg, "invalid label name: "):
		return one(labelField("labels", strings.TrimPrefix(msg, "invalid label name: ")))
	case strings.HasPrefix(msg, "invalid annotation name: "):
		return one(labelField("annotations", strings.TrimPrefix(msg, "invalid annotation name: ")))
	case strings.HasPrefix(msg, "invalid label value: "):
		value := strings.TrimPrefix(msg, "invalid label value: ")
		var out []fieldMessage
		for _, k := range slices.Sorted(maps.Keys(r.Labels)) {
			if r.Labels[k] == value {
				out = append(out, fieldMessage{labelField("labels", k), msg})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	// Template errors: `label "k": ...` and `annotation "k": ...`.
	for _, m := range []struct {
		what, field string
		keys        map[string]string
	}{{"label", "labels", r.Labels}, {"annotation", "annotations", r.Annotations}} {
		for k := range m.keys {
			if prefix := fmt.Sprintf("%s %q: ", m.what, k); strings.HasPrefix(msg, prefix) {
				return []fieldMessage{{labelField(m.field, k), "invalid template: " + strings.TrimPrefix(msg, prefix)}}
			}
		}
	}
	return one("")
}

// checkExpr checks what the parser alone does not: the expression's result type, and
// functions the Prometheus version lacks or has only behind the experimental flag.
func (v *Validator) checkExpr(at location, expr parser.Expr) []Problem {
	var ps []Problem
	if t := expr.Type(); t != parser.ValueTypeVector && t != parser.ValueTypeScalar {
		ps = append(ps, at.problem("expr", fmt.Sprintf(
			"expression must evaluate to an instant vector or a scalar, not a %s", parser.DocumentedType(t))))
	}
	seen := map[string]bool{}
	parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
		switch n := node.(type) {
		case *parser.Call:
			seen[n.Func.Name] = true
		case *parser.AggregateExpr:
			seen[n.Op.String()] = true
		}
		return nil
	})
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		if msg := v.checkFunction(name); msg != "" {
			ps = append(ps, at.problem("expr", msg))
		}
	}
	return ps
}

// checkFunction returns why the Prometheus version cannot evaluate function name, or "".
func (v *Validator) checkFunction(name string) string {
	g, ok := functionGates[name]
	if !ok {
		return ""
	}
	if !v.version.AtLeast(g.since) {
		if v.thanos != nil {
			return fmt.Sprintf("function %q needs Prometheus %s or later; this Thanos Ruler runs Thanos %s, whose rule engine is that of Prometheus %s", name, g.since, v.thanos, v.version)
		}
		return fmt.Sprintf("function %q needs Prometheus %s or later; this Prometheus runs %s", name, g.since, v.version)
	}
	experimental := g.experimentalUntil != (versions.Version{}) && g.experimentalUntil != g.since && !v.version.AtLeast(g.experimentalUntil)
	if experimental && !v.experimental {
		if v.thanos != nil {
			return fmt.Sprintf("function %q is experimental: a Thanos Ruler does not evaluate experimental PromQL features", name)
		}
		return fmt.Sprintf("function %q is experimental in Prometheus %s: it needs the %s feature flag",
			name, v.version, FeatureExperimentalFunctions)
	}
	return ""
}

// withHint adds what to do to parser messages about functions a version lacks.
func (v *Validator) withHint(msg string) string {
	if !strings.HasPrefix(msg, "could not parse expression") {
		return msg
	}
	if v.thanos != nil && (strings.HasSuffix(msg, " is not enabled") || strings.HasSuffix(msg, "are experimental and not enabled")) {
		return msg + ": a Thanos Ruler does not evaluate experimental PromQL features"
	}
	switch {
	case strings.HasSuffix(msg, "binop fill modifiers are experimental and not enabled"):
		if !v.version.AtLeast(fillModifiersSince) {
			return fmt.Sprintf("%s: they need Prometheus %s or later and the %s feature flag", msg, fillModifiersSince, FeatureBinopFillModifiers)
		}
		return msg + ": they need the " + FeatureBinopFillModifiers + " feature flag"
	case strings.HasSuffix(msg, " is not enabled"):
		return msg + ": it needs the " + FeatureExperimentalFunctions + " feature flag"
	}
	for name, g := range functionGates {
		if g.renamedTo != "" && strings.HasSuffix(msg, fmt.Sprintf("unknown function with name %q", name)) {
			return fmt.Sprintf("%s: Prometheus %s renamed it to %s", msg, g.removedIn, g.renamedTo)
		}
	}
	return msg
}
