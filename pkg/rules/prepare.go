package rules

import (
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// Enforcement is the namespace-label enforcement of a Prometheus or a ThanosRuler: the
// label (spec.enforcedNamespaceLabel; "" is none) and the rules excluded from it
// (spec.prometheusRulesExcludedFromEnforce, deprecated, and spec.excludedFromEnforcement).
type Enforcement struct {
	Label          string
	ExcludedLegacy []monitoringv1.PrometheusRuleExcludeConfig
	Excluded       []monitoringv1.ObjectReference
}

// EnforcementOf returns the enforcement of Prometheus p.
func EnforcementOf(p *monitoringv1.Prometheus) Enforcement {
	return Enforcement{Label: p.Spec.EnforcedNamespaceLabel, ExcludedLegacy: p.Spec.PrometheusRulesExcludedFromEnforce, Excluded: p.Spec.ExcludedFromEnforcement}
}

// ThanosEnforcementOf returns the enforcement of ThanosRuler t.
func ThanosEnforcementOf(t *monitoringv1.ThanosRuler) Enforcement {
	return Enforcement{Label: t.Spec.EnforcedNamespaceLabel, ExcludedLegacy: t.Spec.PrometheusRulesExcludedFromEnforce, Excluded: t.Spec.ExcludedFromEnforcement}
}

// LabelFor returns the label enforced on rule, or "" when enforcement is off or the rule
// is excluded.
func (e Enforcement) LabelFor(rule *monitoringv1.PrometheusRule) string {
	if e.Label == "" {
		return ""
	}
	for _, x := range e.ExcludedLegacy {
		if x.RuleNamespace == rule.Namespace && (x.RuleName == "" || x.RuleName == rule.Name) {
			return ""
		}
	}
	for _, ref := range e.Excluded {
		if ref.Resource == monitoringv1.PrometheusRuleName && ref.Namespace == rule.Namespace && (ref.Name == "" || ref.Name == rule.Name) {
			return ""
		}
	}
	return e.Label
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
	file, err := v.renderFile(rule, spec)
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

// ThanosOptionsFor returns the validation options of the ThanosRuler t, whose Thanos
// version is version (spec.version, or the operator's default when it is empty).
func ThanosOptionsFor(version string) Options {
	return Options{Version: version, Thanos: true}
}
