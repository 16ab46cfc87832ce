package promctrl

import (
	"context"

	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// reconcileRules selects, validates, enforces, renders and packs the PrometheusRules of p
// (package rulefiles, shared with the ThanosRuler controller).
func (r *Reconciler) reconcileRules(ctx context.Context, p *promserver.Server, st *promState, sel *pipeline.Selectors, nsLabels selection.NamespaceLabels) (*rulefiles.Result, error) {
	return st.rules.Reconcile(ctx, r.Client, r.APIReader, rulefiles.Input{
		Options:         rules.OptionsFor(p),
		Enforcement:     rules.EnforcementOf(p),
		Selector:        sel.Rules,
		Scope:           r.cfg.Scope,
		NamespaceLabels: nsLabels,
		Namespace:       p.Namespace,
		ConfigMapName:   func(i int) string { return layout.Prometheus(p.Name).RuleConfigMap(i) },
	})
}
