package rules

import (
	"bytes"
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/rulefmt"
	"go.yaml.in/yaml/v3"
)

// FileExtension ends every rule file name.
const FileExtension = ".yaml"

// maxKeyLength is the longest ConfigMap key the API server accepts.
const maxKeyLength = 253

// FileName is the ConfigMap key of a PrometheusRule's rule file:
// "<namespace>-<name>-<uid>.yaml". When that would be longer than a ConfigMap key may be
// (253 characters), the "<namespace>-<name>" part is cut short; the UID keeps it unique.
func FileName(rule *monitoringv1.PrometheusRule) string {
	suffix := "-" + string(rule.UID) + FileExtension
	prefix := rule.Namespace + "-" + rule.Name
	if len(prefix)+len(suffix) > maxKeyLength {
		prefix = prefix[:max(0, maxKeyLength-len(suffix))]
	}
	return prefix + suffix
}

// RenderFile renders spec as the rule file of rule: the header (see ParseHeader) followed
// by the groups in Prometheus's rule file format. spec is passed separately from rule so
// that callers can render an enforced or otherwise rewritten copy. The output depends only
// on its inputs: map keys are sorted, and strings that look like numbers or booleans are
// quoted so they stay strings. Thanos-only fields (partial_response_strategy) are left
// out. It fails on a duration that does not parse.
func RenderFile(rule *monitoringv1.PrometheusRule, spec monitoringv1.PrometheusRuleSpec) ([]byte, error) {
	body, err := renderBody(spec)
	return withHeader(rule, body, err)
}

// withHeader puts the header of rule before body, the rendered groups (or the error
// rendering them).
func withHeader(rule *monitoringv1.PrometheusRule, body []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, fmt.Errorf("rendering PrometheusRule %s/%s: %w", rule.Namespace, rule.Name, err)
	}
	h := headerFor(rule)
	out := make([]byte, 0, len(body)+256)
	out = append(out, h.render()...)
	return append(out, body...), nil
}

// renderBody marshals spec as rulefmt rule groups.
func renderBody(spec monitoringv1.PrometheusRuleSpec) ([]byte, error) {
	groups, err := toRuleGroups(spec)
	if err != nil {
		return nil, err
	}
	return marshalGroups(groups)
}

// marshalGroups marshals rule groups as YAML indented by two spaces.
func marshalGroups(groups any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(groups); err != nil {
		return nil, fmt.Errorf("marshalling rule groups: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("marshalling rule groups: %w", err)
	}
	return buf.Bytes(), nil
}

// toRuleGroups converts the API types into Prometheus's rule file types.
func toRuleGroups(spec monitoringv1.PrometheusRuleSpec) (rulefmt.RuleGroups, error) {
	out := rulefmt.RuleGroups{Groups: make([]rulefmt.RuleGroup, 0, len(spec.Groups))}
	for gi, g := range spec.Groups {
		rg := rulefmt.RuleGroup{Name: g.Name, Labels: g.Labels, Rules: make([]rulefmt.Rule, 0, len(g.Rules))}
		if g.Interval != nil {
			d, err := parseDuration(fmt.Sprintf("spec.groups[%d].interval", gi), string(*g.Interval))
			if err != nil {
				return out, err
			}
			rg.Interval = d
		}
		if g.QueryOffset != nil {
			d, err := parseDuration(fmt.Sprintf("spec.groups[%d].query_offset", gi), string(*g.QueryOffset))
			if err != nil {
				return out, err
			}
			rg.QueryOffset = &d
		}
		if g.Limit != nil {
			rg.Limit = *g.Limit
		}
		for ri, r := range g.Rules {
			rr := rulefmt.Rule{
				Record:      r.Record,
				Alert:       r.Alert,
				Expr:        r.Expr.String(),
				Labels:      r.Labels,
				Annotations: r.Annotations,
			}
			if r.For != nil {
				d, err := parseDuration(fmt.Sprintf("spec.groups[%d].rules[%d].for", gi, ri), string(*r.For))
				if err != nil {
					return out, err
				}
				rr.For = d
			}
			if r.KeepFiringFor != nil {
				d, err := parseDuration(fmt.Sprintf("spec.groups[%d].rules[%d].keep_firing_for", gi, ri), string(*r.KeepFiringFor))
				if err != nil {
					return out, err
				}
				rr.KeepFiringFor = d
			}
			rg.Rules = append(rg.Rules, rr)
		}
		out.Groups = append(out.Groups, rg)
	}
	return out, nil
}

func parseDuration(path, s string) (model.Duration, error) {
	d, err := model.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
