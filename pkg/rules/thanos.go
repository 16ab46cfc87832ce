package rules

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// A Thanos Ruler evaluates rule files with the rule engine and PromQL parser of the
// Prometheus release its Thanos release is built on. thanosEngines lists, for the Thanos
// releases where that changed in a way prometheus-operator records, the Prometheus
// release they match; a Thanos release is judged as the entry at or below it. Releases
// older than the first entry are judged as the first one: like the function gates,
// Lookout refuses only what it knows a release lacks.
var thanosEngines = []struct{ thanos, prometheus versions.Version }{
	{thanosVer(0, 24), ver(2, 32)},
	{thanosVer(0, 28), ver(2, 38)},
	{thanosVer(0, 30), ver(2, 40)},
	{thanosVer(0, 31), ver(2, 42)},
	{thanosVer(0, 32), ver(2, 48)},
	{thanosVer(0, 36), ver(2, 52)},
	{thanosVer(0, 37), ver(2, 55)},
	{thanosVer(0, 38), ver(3, 1)},
	{thanosVer(0, 40), ver(3, 5)},
}

// thanosUTF8Since is the first Thanos release that accepts UTF-8 metric and label names.
var thanosUTF8Since = thanosVer(0, 38)

// thanosVer is a Thanos release number (major 0).
func thanosVer(major, minor int) versions.Version { return versions.New(major, minor, 0) }

// ThanosEngine returns the Prometheus release whose rule engine Thanos release t runs.
func ThanosEngine(t versions.Version) versions.Version {
	out := thanosEngines[0].prometheus
	for _, e := range thanosEngines {
		if t.AtLeast(e.thanos) {
			out = e.prometheus
		}
	}
	return out
}

// newThanosValidator is NewValidator for a Thanos Ruler (Options.Thanos).
func newThanosValidator(o Options) (*Validator, error) {
	t, err := versions.ParseThanos(o.Version)
	if err != nil {
		return nil, err
	}
	engine := ThanosEngine(t)
	val := &Validator{
		version:   engine,
		thanos:    &t,
		scheme:    model.LegacyValidation,
		sizeLimit: o.SizeLimit,
		templates: newTemplateSet(),
	}
	if val.sizeLimit <= 0 {
		val.sizeLimit = MaxConfigMapDataBytes
	}
	if t.AtLeast(thanosUTF8Since) {
		val.scheme = model.UTF8Validation
	}
	val.parser = parser.NewParser(parser.Options{Functions: functionsFor(engine)})
	return val, nil
}

// Thanos reports whether v judges rules for a Thanos Ruler.
func (v *Validator) Thanos() bool { return v.thanos != nil }

// checkPartialResponse checks a group's partial_response_strategy: a Thanos Ruler reads
// "warn" or "abort" in any case and refuses the whole rule file over anything else;
// Prometheus ignores the field (it is not rendered for Prometheus).
func (v *Validator) checkPartialResponse(at location, s string) (Problem, bool) {
	if v.thanos == nil || s == "" {
		return Problem{}, true
	}
	switch strings.ToLower(s) {
	case "warn", "abort":
		return Problem{}, true
	}
	return at.problem("partial_response_strategy", fmt.Sprintf("%q is not a partial response strategy: want warn or abort", s)), false
}

// thanosGroup is a rule group as a Thanos Ruler reads it: Prometheus's, plus the
// partial response strategy of its queries.
type thanosGroup struct {
	rulefmt.RuleGroup       `yaml:",inline"`
	PartialResponseStrategy string `yaml:"partial_response_strategy,omitempty"`
}

// renderBody marshals spec as rule groups in the format of the validator's target.
func (v *Validator) renderBody(spec monitoringv1.PrometheusRuleSpec) ([]byte, error) {
	if v.thanos == nil {
		return renderBody(spec)
	}
	groups, err := toRuleGroups(spec)
	if err != nil {
		return nil, err
	}
	out := struct {
		Groups []thanosGroup `yaml:"groups"`
	}{Groups: make([]thanosGroup, len(groups.Groups))}
	for i, g := range groups.Groups {
		out.Groups[i] = thanosGroup{RuleGroup: g, PartialResponseStrategy: spec.Groups[i].PartialResponseStrategy}
	}
	return marshalGroups(out)
}

// renderFile is RenderFile in the format of the validator's target: for a Thanos Ruler
// the groups keep their partial_response_strategy.
func (v *Validator) renderFile(rule *monitoringv1.PrometheusRule, spec monitoringv1.PrometheusRuleSpec) ([]byte, error) {
	if v.thanos == nil {
		return RenderFile(rule, spec)
	}
	body, err := v.renderBody(spec)
	return withHeader(rule, body, err)
}
