package rules

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// EnforcedLabel returns the namespace label enforced on rule by Prometheus p: its
// spec.enforcedNamespaceLabel, or "" when enforcement is off or the rule is excluded
// (spec.prometheusRulesExcludedFromEnforce, spec.excludedFromEnforcement).
func EnforcedLabel(p *monitoringv1.Prometheus, rule *monitoringv1.PrometheusRule) string {
	label := p.Spec.EnforcedNamespaceLabel
	if label == "" {
		return ""
	}
	for _, x := range p.Spec.PrometheusRulesExcludedFromEnforce {
		if x.RuleNamespace == rule.Namespace && (x.RuleName == "" || x.RuleName == rule.Name) {
			return ""
		}
	}
	for _, ref := range p.Spec.ExcludedFromEnforcement {
		if ref.Resource == monitoringv1.PrometheusRuleName && ref.Namespace == rule.Namespace && (ref.Name == "" || ref.Name == rule.Name) {
			return ""
		}
	}
	return label
}

// Prepare validates rule with v, enforces label (when not empty) and renders its file: the
// one decision the controller and `render` share. problem is empty when the rule is
// accepted; otherwise it says every problem found, and file is nil.
func Prepare(v *Validator, rule *monitoringv1.PrometheusRule, label string) (file []byte, problem string) {
	if ps := v.Validate(rule.Spec); len(ps) > 0 {
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.Error()
		}
		return nil, strings.Join(msgs, "; ")
	}
	spec := rule.Spec
	if label != "" {
		var err error
		if spec, err = EnforceNamespaceLabel(rule.Spec, label, rule.Namespace); err != nil {
			return nil, err.Error()
		}
	}
	file, err := RenderFile(rule, spec)
	if err != nil {
		return nil, err.Error()
	}
	return file, ""
}

// OptionsFor returns the validation options of the Prometheus p: its version, enabled
// features and name validation scheme.
func OptionsFor(p *monitoringv1.Prometheus) Options {
	feats := make([]string, len(p.Spec.EnableFeatures))
	for i, f := range p.Spec.EnableFeatures {
		feats[i] = string(f)
	}
	o := Options{Version: p.Spec.Version, EnableFeatures: feats}
	if p.Spec.NameValidationScheme != nil {
		o.NameValidationScheme = *p.Spec.NameValidationScheme
	}
	return o
}
