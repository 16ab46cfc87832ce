package pipeline

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Candidates are the monitors a Prometheus may select: those of the watched namespaces.
type Candidates struct {
	ServiceMonitors []*monitoringv1.ServiceMonitor
	PodMonitors     []*monitoringv1.PodMonitor
	Probes          []*monitoringv1.Probe
	ScrapeConfigs   []*monitoringv1alpha1.ScrapeConfig
}

// Input is one run of the step.
type Input struct {
	Prometheus *monitoringv1.Prometheus
	Selectors  *Selectors
	Candidates Candidates
	// Scope and NamespaceLabels decide the namespace selectors (Scope zero: every
	// namespace is watched).
	Scope           selection.Scope
	NamespaceLabels selection.NamespaceLabels
	Assets          promcfg.Assets
	RuleFiles       []string
}

// Output is the generated configuration (nil with Err) and the verdict on every
// candidate, by kind: not selected (with the reason), rejected as invalid, or accepted.
type Output struct {
	Result *promcfg.Result
	// Err is a Prometheus-level error: no configuration would be written. Errors the
	// generator marks with promcfg.ErrUnavailable are transient.
	Err      error
	Verdicts map[string][]selection.Verdict
	// Selected are the monitors selected, as passed to the generator.
	Selected Candidates
}

// Run selects in.Prometheus's monitors, generates its configuration with g and merges
// generation's verdicts (which may reject a selected monitor) into selection's.
func Run(g *promcfg.Generator, in Input) *Output {
	out := &Output{Verdicts: map[string][]selection.Verdict{}}
	sel, c := in.Selectors, in.Candidates
	var v []selection.Verdict
	out.Selected.ServiceMonitors, v = selection.Select(sel.ServiceMonitors, c.ServiceMonitors, in.Scope, in.NamespaceLabels)
	out.Verdicts[monitoringv1.ServiceMonitorsKind] = v
	out.Selected.PodMonitors, v = selection.Select(sel.PodMonitors, c.PodMonitors, in.Scope, in.NamespaceLabels)
	out.Verdicts[monitoringv1.PodMonitorsKind] = v
	out.Selected.Probes, v = selection.Select(sel.Probes, c.Probes, in.Scope, in.NamespaceLabels)
	out.Verdicts[monitoringv1.ProbesKind] = v
	out.Selected.ScrapeConfigs, v = selection.Select(sel.ScrapeConfigs, c.ScrapeConfigs, in.Scope, in.NamespaceLabels)
	out.Verdicts[monitoringv1alpha1.ScrapeConfigsKind] = v

	s := out.Selected
	out.Result, out.Err = g.Generate(promcfg.Input{
		Prometheus: in.Prometheus, ServiceMonitors: s.ServiceMonitors, PodMonitors: s.PodMonitors, Probes: s.Probes,
		ScrapeConfigs: s.ScrapeConfigs, Assets: in.Assets, RuleFiles: in.RuleFiles,
	})
	if out.Result != nil {
		byKey := verdictsByKey(out.Result.Verdicts)
		for kind, vs := range out.Verdicts {
			out.Verdicts[kind] = mergeVerdicts(vs, byKey)
		}
	}
	return out
}

// MergeVerdicts replaces selection's verdicts on the monitors it used with generation's
// verdicts (which may say InvalidConfiguration).
func MergeVerdicts(sel, gen []selection.Verdict) []selection.Verdict {
	return mergeVerdicts(sel, verdictsByKey(gen))
}

// verdictID identifies a verdict's object; a struct of the three fields hashes them as
// they are, where a string key cost a concatenation per verdict.
type verdictID struct{ kind, namespace, name string }

func idOf(v selection.Verdict) verdictID { return verdictID{v.Kind, v.Namespace, v.Name} }

func verdictsByKey(gen []selection.Verdict) map[verdictID]selection.Verdict {
	byKey := make(map[verdictID]selection.Verdict, len(gen))
	for _, v := range gen {
		byKey[idOf(v)] = v
	}
	return byKey
}

func mergeVerdicts(sel []selection.Verdict, byKey map[verdictID]selection.Verdict) []selection.Verdict {
	if len(sel) == 0 {
		return sel
	}
	out := make([]selection.Verdict, len(sel))
	for i, v := range sel {
		if g, ok := byKey[idOf(v)]; ok && v.Used() {
			v = g
		}
		out[i] = v
	}
	return out
}
