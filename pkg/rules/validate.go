package rules

import (
	"fmt"
	"maps"
	"slices"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
)

// Validate checks spec for the Prometheus version given as in a Prometheus object's
// spec.version ("" means versions.DefaultPrometheus) with no feature flags enabled, and returns every
// problem found, in the order of the object. It is NewValidator plus Validator.Validate;
// an unreadable version is returned as a problem.
func Validate(spec monitoringv1.PrometheusRuleSpec, version string) []Problem {
	v, err := NewValidator(Options{Version: version})
	if err != nil {
		return []Problem{{Path: "spec", GroupIndex: -1, RuleIndex: -1, Message: err.Error()}}
	}
	return v.Validate(spec)
}

// Validate returns every reason Prometheus would refuse spec, or fail to evaluate it,
// ordered by position in the object; nil means the rules are fine. It checks:
//   - group names: not empty, unique within the object;
//   - groups with no rules;
//   - durations (interval, query_offset, for, keep_firing_for) as Prometheus parses them;
//   - fields the Prometheus version does not know (limit, keep_firing_for, query_offset,
//     group labels);
//   - group and rule label names and values for the version's name validation scheme;
//   - each rule with rulefmt (alert/record, expr, recording-rule fields, annotation
//     names, label and annotation templates) and the PromQL parser;
//   - that each expression yields an instant vector or a scalar, and uses only functions
//     the version has (experimental ones only with the feature flag);
//   - that the rendered file fits in one rule ConfigMap.
func (v *Validator) Validate(spec monitoringv1.PrometheusRuleSpec) []Problem {
	var ps []Problem
	durationsOK := true
	firstUse := make(map[string]int, len(spec.Groups))
	for gi := range spec.Groups {
		g := &spec.Groups[gi]
		at := location{groupIndex: gi, group: g.Name, ruleIndex: -1, path: fmt.Sprintf("spec.groups[%d]", gi)}

		if g.Name == "" {
			ps = append(ps, at.problem("name", "group name must not be empty"))
		} else if first, dup := firstUse[g.Name]; dup {
			ps = append(ps, at.problem("name", fmt.Sprintf(
				"group name %q is already used by spec.groups[%d]: group names must be unique within a PrometheusRule", g.Name, first)))
		} else {
			firstUse[g.Name] = gi
		}

		if g.Interval != nil {
			if p, ok := v.checkDuration(at, "interval", string(*g.Interval)); !ok {
				ps, durationsOK = append(ps, p), false
			}
		}
		if g.QueryOffset != nil {
			if p, ok := v.checkGate(at, "query_offset", gateQueryOffset); !ok {
				ps = append(ps, p)
			}
			if p, ok := v.checkDuration(at, "query_offset", string(*g.QueryOffset)); !ok {
				ps, durationsOK = append(ps, p), false
			}
		}
		if g.Limit != nil {
			if p, ok := v.checkGate(at, "limit", gateLimit); !ok {
				ps = append(ps, p)
			}
		}
		if len(g.Labels) > 0 {
			if p, ok := v.checkGate(at, "labels", gateGroupLabels); !ok {
				ps = append(ps, p)
			}
			ps = append(ps, v.checkLabels(at, g.Labels)...)
		}
		if len(g.Rules) == 0 {
			ps = append(ps, at.problem("rules", "group has no rules"))
		}
		if p, ok := v.checkPartialResponse(at, g.PartialResponseStrategy); !ok {
			ps = append(ps, p)
		}
		for ri := range g.Rules {
			rps, ok := v.validateRule(at.rule(ri, &g.Rules[ri]), &g.Rules[ri])
			ps = append(ps, rps...)
			durationsOK = durationsOK && ok
		}
	}
	if durationsOK {
		if p, ok := v.checkSize(spec); !ok {
			ps = append(ps, p)
		}
	}
	return sortProblems(ps)
}

// checkDuration parses a duration as Prometheus does.
func (v *Validator) checkDuration(at location, field, value string) (Problem, bool) {
	if _, err := model.ParseDuration(value); err != nil {
		return at.problem(field, err.Error()), false
	}
	return Problem{}, true
}

// checkGate reports a field the Prometheus version does not know.
func (v *Validator) checkGate(at location, field string, g fieldGate) (Problem, bool) {
	if v.thanos != nil {
		if v.thanos.AtLeast(g.thanosSince) {
			return Problem{}, true
		}
		return at.problem(field, fmt.Sprintf("field %q needs Thanos %s or later; this Thanos Ruler runs %s",
			g.field, g.thanosSince, v.thanos)), false
	}
	if v.version.AtLeast(g.since) {
		return Problem{}, true
	}
	return at.problem(field, fmt.Sprintf("field %q needs Prometheus %s or later; this Prometheus runs %s",
		g.field, g.since, v.version)), false
}

// checkLabels checks label names and values the way rulefmt does.
func (v *Validator) checkLabels(at location, labels map[string]string) []Problem {
	var ps []Problem
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if !v.scheme.IsValidLabelName(k) || k == model.MetricNameLabel {
			ps = append(ps, at.problem(labelField("labels", k), "invalid label name: "+k))
		}
		if !model.LabelValue(labels[k]).IsValid() {
			ps = append(ps, at.problem(labelField("labels", k), "invalid label value: "+labels[k]))
		}
	}
	return ps
}

// checkSize reports a spec whose rule file cannot fit in one ConfigMap, whatever the
// object's namespace, name and UID.
func (v *Validator) checkSize(spec monitoringv1.PrometheusRuleSpec) (Problem, bool) {
	if renderedSizeBound(spec)+maxFileOverhead <= v.sizeLimit {
		return Problem{}, true // certainly fits: no need to render
	}
	body, err := v.renderBody(spec)
	if err != nil {
		return Problem{Path: "spec", GroupIndex: -1, RuleIndex: -1, Message: err.Error()}, false
	}
	if len(body)+maxFileOverhead <= v.sizeLimit {
		return Problem{}, true
	}
	return Problem{Path: "spec", GroupIndex: -1, RuleIndex: -1, Message: fmt.Sprintf(
		"the rule groups render to %d bytes, more than the %d bytes one rule ConfigMap holds once up to %d bytes of file name and header are added: split the groups over several PrometheusRule objects",
		len(body), v.sizeLimit, maxFileOverhead)}, false
}

func labelField(field, key string) string { return field + "[" + key + "]" }
