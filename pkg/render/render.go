package render

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Output is what the operator would generate for one Prometheus.
type Output struct {
	Prometheus *promserver.Server
	Result     *promcfg.Result
	// Err is a Prometheus-level error: no configuration would be written.
	Err error
	// Verdicts covers every monitor and PrometheusRule considered: not selected (with the
	// reason), rejected as invalid, or accepted.
	Verdicts []selection.Verdict
	// RuleFiles are the rule files the operator would write, by file name, and
	// RuleConfigMaps the data of the rule ConfigMaps they are packed into.
	RuleFiles      map[string][]byte
	RuleConfigMaps []map[string]string
}

// Options narrow what is rendered.
type Options struct {
	// Prometheus selects one Prometheus as "namespace/name" or "name"; empty renders all.
	// Alertmanager and ThanosRuler likewise select one of their kind.
	Prometheus, Alertmanager, ThanosRuler string
	// Versions are run by an object without spec.version, as the operator's
	// --default-versions says (empty: Lookout's own).
	Versions versions.Defaults
	// NoTopologySharding renders as the operator with the PrometheusTopologySharding
	// feature gate off: spec.shardingStrategy mode Topology is ignored.
	NoTopologySharding bool
	// PodZoneLabels renders for a cluster that labels pods with their zone (Kubernetes
	// 1.35 and later): topology sharding reads the pod label instead of node metadata.
	PodZoneLabels bool
}

// Render generates the configuration of each Prometheus in objs.
func Render(objs *Objects, opts Options) ([]Output, error) {
	return renderPicked(objs, "Prometheus", opts.Prometheus, objs.Prometheuses, renderServer(objs, opts))
}

// RenderAgents generates the configuration of each PrometheusAgent in objs (opts.Prometheus
// picks one), as the PrometheusAgent controller does: an agent selects no rules.
func RenderAgents(objs *Objects, opts Options) ([]Output, error) {
	return renderPicked(objs, "PrometheusAgent", opts.Prometheus, objs.Agents, renderServer(objs, opts))
}

// renderServer renders one Prometheus or PrometheusAgent.
func renderServer(objs *Objects, opts Options) func(*promserver.Server, promcfg.Assets, selection.NamespaceLabels) Output {
	return func(p *promserver.Server, store promcfg.Assets, nsLabels selection.NamespaceLabels) Output {
		p = opts.Versions.OfPrometheus(p)
		if opts.NoTopologySharding {
			p = p.WithoutTopologySharding()
		}
		o := Output{Prometheus: p}
		sel, err := pipeline.Compile(p)
		if err != nil {
			o.Err = err
			return o
		}
		ruleVerdicts, files, err := renderRules(p, sel, objs.PrometheusRules, nsLabels)
		o.RuleFiles = files
		// Packed as the operator packs them; the pods mount the rule ConfigMaps in slots.
		o.RuleConfigMaps, _ = rules.Pack(files, rules.MaxConfigMapDataBytes)
		gen := promcfg.NewGenerator()
		gen.PodZoneLabels = opts.PodZoneLabels
		run := pipeline.Run(gen, pipeline.Input{
			Prometheus: p, Selectors: sel, NamespaceLabels: nsLabels, Assets: store,
			RuleFiles:  layout.Prometheus(p.Name).RuleFileGlobs(workload.Slots(len(o.RuleConfigMaps))),
			Candidates: objs.Monitors,
		})
		o.Result, o.Err = run.Result, run.Err
		for _, k := range monitorkind.All {
			o.Verdicts = append(o.Verdicts, run.Verdicts[k.Name]...)
		}
		if err != nil && o.Err == nil {
			o.Err = err
		}
		o.Verdicts = append(o.Verdicts, ruleVerdicts...)
		return o
	}
}

// renderRules selects p's PrometheusRules and validates, enforces and renders each as the
// controller does (rules.Prepare), with the Prometheus version's validator.
func renderRules(p *promserver.Server, sels *pipeline.Selectors, all []*monitoringv1.PrometheusRule, nsLabels selection.NamespaceLabels) ([]selection.Verdict, map[string][]byte, error) {
	return prepareRules(rules.OptionsFor(p), rules.EnforcementOf(p), sels.Rules, all, nsLabels)
}

// prepareRules selects the PrometheusRules of a Prometheus or a ThanosRuler (sel) and
// validates (with the server's options), enforces and renders each as the controller does
// (rules.Prepare).
//
// It is the controller's rulefiles.State.Reconcile without what a long-running process
// adds: the cache of prepared rules, the last accepted version of a rule that turned
// invalid, and packing stable against the live ConfigMaps.
func prepareRules(opts rules.Options, enf rules.Enforcement, sel *selection.Compiled, all []*monitoringv1.PrometheusRule, nsLabels selection.NamespaceLabels) ([]selection.Verdict, map[string][]byte, error) {
	v, err := rules.NewValidator(opts)
	if err != nil {
		return nil, nil, fmt.Errorf("spec.version: %w", err)
	}
	selected, verdicts := selection.Select(sel, all, nil, nsLabels)
	problems := map[string]string{}
	files := map[string][]byte{}
	for _, r := range selected {
		file, problem := rules.Prepare(v, r, enf.LabelFor(r))
		if problem != "" {
			problems[r.Namespace+"/"+r.Name] = problem
			continue
		}
		files[rules.FileName(r)] = file
	}
	selection.MarkInvalid(verdicts, problems)
	return verdicts, files, nil
}
