package rules

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// servedGroups is a rendered rule file (Prometheus's or a Thanos Ruler's format) as
// ServedSpec reads it back.
type servedGroups struct {
	Groups []struct {
		Name                    string            `yaml:"name"`
		Interval                string            `yaml:"interval"`
		QueryOffset             string            `yaml:"query_offset"`
		Limit                   *int              `yaml:"limit"`
		Labels                  map[string]string `yaml:"labels"`
		PartialResponseStrategy string            `yaml:"partial_response_strategy"`
		Rules                   []struct {
			Record        string            `yaml:"record"`
			Alert         string            `yaml:"alert"`
			Expr          string            `yaml:"expr"`
			For           string            `yaml:"for"`
			KeepFiringFor string            `yaml:"keep_firing_for"`
			Labels        map[string]string `yaml:"labels"`
			Annotations   map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// ServedSpec reads a rendered rule file (see FindServed) back as the PrometheusRule spec
// it serves, namespace enforcement included.
func ServedSpec(content []byte) (monitoringv1.PrometheusRuleSpec, error) {
	var f servedGroups
	if err := yaml.Unmarshal(content, &f); err != nil {
		return monitoringv1.PrometheusRuleSpec{}, fmt.Errorf("reading the served rule file: %w", err)
	}
	dur := func(s string) *monitoringv1.Duration {
		if s == "" {
			return nil
		}
		d := monitoringv1.Duration(s)
		return &d
	}
	var spec monitoringv1.PrometheusRuleSpec
	for _, g := range f.Groups {
		rg := monitoringv1.RuleGroup{Name: g.Name, Labels: g.Labels, Interval: dur(g.Interval), QueryOffset: dur(g.QueryOffset),
			Limit: g.Limit, PartialResponseStrategy: g.PartialResponseStrategy}
		for _, r := range g.Rules {
			rule := monitoringv1.Rule{Record: r.Record, Alert: r.Alert, Expr: intstr.FromString(r.Expr), For: dur(r.For), Labels: r.Labels, Annotations: r.Annotations}
			if r.KeepFiringFor != "" {
				k := monitoringv1.NonEmptyDuration(r.KeepFiringFor)
				rule.KeepFiringFor = &k
			}
			rg.Rules = append(rg.Rules, rule)
		}
		spec.Groups = append(spec.Groups, rg)
	}
	return spec, nil
}

// CheckServed judges a served rule file with v, the validator of the owner's current
// settings (version, enabled features, name validation scheme): the problems it has now,
// "" when none. A last accepted version is served only when it passes: a setting changed
// since it was accepted can make the server refuse the whole rule file.
func CheckServed(v *Validator, content []byte) string {
	spec, err := ServedSpec(content)
	if err != nil {
		return err.Error()
	}
	ps := v.Validate(spec)
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "; ")
}
