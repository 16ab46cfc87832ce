package render

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Output is what the operator would generate for one Prometheus.
type Output struct {
	Prometheus *monitoringv1.Prometheus
	Result     *promcfg.Result
	// Err is a Prometheus-level error: no configuration would be written.
	Err error
	// Verdicts covers every monitor and PrometheusRule considered: not selected (with the
	// reason), rejected as invalid, or accepted.
	Verdicts []selection.Verdict
	// RuleFiles are the rule files the operator would write, by file name.
	RuleFiles map[string][]byte
}

// Options narrow what is rendered.
type Options struct {
	// Prometheus selects one Prometheus as "namespace/name" or "name"; empty renders all.
	Prometheus string
	// RuleFiles returns the rule_files globs of a Prometheus.
	RuleFiles func(*monitoringv1.Prometheus) []string
}

// Render generates the configuration of each Prometheus in objs.
func Render(objs *Objects, opts Options) ([]Output, error) {
	var out []Output
	store := assets.NewStatic(objs.Secrets, objs.ConfigMaps)
	nsLabels := objs.namespaceLabels()
	for _, p := range objs.Prometheuses {
		if opts.Prometheus != "" && opts.Prometheus != p.Name && opts.Prometheus != p.Namespace+"/"+p.Name {
			continue
		}
		o := Output{Prometheus: p}
		smSel, err := selection.Compile(selection.Selector{Kind: monitoringv1.ServiceMonitorsKind, Labels: p.Spec.ServiceMonitorSelector, Namespaces: p.Spec.ServiceMonitorNamespaceSelector, OwnNamespace: p.Namespace})
		if err != nil {
			o.Err = err
			out = append(out, o)
			continue
		}
		pmSel, err := selection.Compile(selection.Selector{Kind: monitoringv1.PodMonitorsKind, Labels: p.Spec.PodMonitorSelector, Namespaces: p.Spec.PodMonitorNamespaceSelector, OwnNamespace: p.Namespace})
		if err != nil {
			o.Err = err
			out = append(out, o)
			continue
		}
		prSel, err := selection.Compile(selection.Selector{Kind: monitoringv1.ProbesKind, Labels: p.Spec.ProbeSelector, Namespaces: p.Spec.ProbeNamespaceSelector, OwnNamespace: p.Namespace})
		if err != nil {
			o.Err = err
			out = append(out, o)
			continue
		}
		scSel, err := selection.Compile(selection.Selector{Kind: monitoringv1alpha1.ScrapeConfigsKind, Labels: p.Spec.ScrapeConfigSelector, Namespaces: p.Spec.ScrapeConfigNamespaceSelector, OwnNamespace: p.Namespace})
		if err != nil {
			o.Err = err
			out = append(out, o)
			continue
		}
		sms, smVerdicts := selection.Select(smSel, objs.ServiceMonitors, nil, nsLabels)
		pms, pmVerdicts := selection.Select(pmSel, objs.PodMonitors, nil, nsLabels)
		prs, prVerdicts := selection.Select(prSel, objs.Probes, nil, nsLabels)
		scs, scVerdicts := selection.Select(scSel, objs.ScrapeConfigs, nil, nsLabels)
		var ruleFiles []string
		if opts.RuleFiles != nil {
			ruleFiles = opts.RuleFiles(p)
		}
		res, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: p, ServiceMonitors: sms, PodMonitors: pms, Probes: prs, ScrapeConfigs: scs, Assets: store, RuleFiles: ruleFiles})
		o.Result, o.Err = res, err
		all := append(append(append(smVerdicts, pmVerdicts...), prVerdicts...), scVerdicts...)
		o.Verdicts = mergeVerdicts(all, res)
		ruleVerdicts, files, err := renderRules(p, objs.PrometheusRules, nsLabels)
		if err != nil && o.Err == nil {
			o.Err = err
		}
		o.Verdicts, o.RuleFiles = append(o.Verdicts, ruleVerdicts...), files
		out = append(out, o)
	}
	if opts.Prometheus != "" && len(out) == 0 {
		return nil, fmt.Errorf("no Prometheus %q in the manifests", opts.Prometheus)
	}
	return out, nil
}

// renderRules selects p's PrometheusRules and validates, enforces and renders each as the
// controller does (rules.Prepare), with the Prometheus version's validator.
func renderRules(p *monitoringv1.Prometheus, all []*monitoringv1.PrometheusRule, nsLabels selection.NamespaceLabels) ([]selection.Verdict, map[string][]byte, error) {
	sel, err := selection.Compile(selection.Selector{Kind: monitoringv1.PrometheusRuleKind, Labels: p.Spec.RuleSelector, Namespaces: p.Spec.RuleNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, nil, err
	}
	v, err := rules.NewValidator(rules.OptionsFor(p))
	if err != nil {
		return nil, nil, fmt.Errorf("spec.version: %w", err)
	}
	selected, verdicts := selection.Select(sel, all, nil, nsLabels)
	problems := map[string]string{}
	files := map[string][]byte{}
	for _, r := range selected {
		file, problem := rules.Prepare(v, r, rules.EnforcedLabel(p, r))
		if problem != "" {
			problems[r.Namespace+"/"+r.Name] = problem
			continue
		}
		files[rules.FileName(r)] = file
	}
	for i := range verdicts {
		if msg, bad := problems[verdicts[i].Namespace+"/"+verdicts[i].Name]; bad && verdicts[i].Used() {
			verdicts[i].Reason, verdicts[i].Message = selection.InvalidConfiguration, msg
		}
	}
	return verdicts, files, nil
}

// mergeVerdicts replaces the Accepted verdicts of selection with generation's verdicts,
// which may say InvalidConfiguration.
func mergeVerdicts(sel []selection.Verdict, res *promcfg.Result) []selection.Verdict {
	if res == nil {
		return sel
	}
	gen := map[string]selection.Verdict{}
	for _, v := range res.Verdicts {
		gen[v.Key()] = v
	}
	out := make([]selection.Verdict, 0, len(sel))
	for _, v := range sel {
		if g, ok := gen[v.Key()]; ok && v.Used() {
			v = g
		}
		out = append(out, v)
	}
	return out
}
