package prometheus

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// reconcileRules selects, validates, enforces, renders and packs the PrometheusRules of p
// (package rulefiles, shared with the ThanosRuler controller).
func (r *Reconciler) reconcileRules(ctx context.Context, p *monitoringv1.Prometheus, st *promState, sel *pipeline.Selectors, nsLabels selection.NamespaceLabels) (*rulefiles.Result, error) {
	return st.rules.Reconcile(ctx, r.Client, r.APIReader, rulefiles.Input{
		Options:         rules.OptionsFor(p),
		Enforcement:     rules.EnforcementOf(p),
		Selector:        sel.Rules,
		Scope:           r.cfg.Scope,
		NamespaceLabels: nsLabels,
		Namespace:       p.Namespace,
		ConfigMapName:   func(i int) string { return layout.RuleConfigMapName(p.Name, i) },
	})
}

// applyRuleConfigMaps writes the packed rule ConfigMaps (the caller deletes surplus ones
// after the StatefulSets are updated, so Prometheus never misses rules). Without rules,
// prometheus-<name>-rulefiles-0 is written empty, as prometheus-operator does.
func (r *Reconciler) applyRuleConfigMaps(ctx context.Context, p *monitoringv1.Prometheus, st *promState, res *rulefiles.Result) error {
	written := res.ConfigMaps
	if len(written) == 0 {
		written = []map[string]string{{}}
	}
	for i, data := range written {
		bin := make(map[string][]byte, len(data))
		for k, v := range data {
			bin[k] = []byte(v)
		}
		cm := &corev1.ConfigMap{ObjectMeta: r.objectMeta(p, layout.RuleConfigMapName(p.Name, i), dataHash(bin)), Data: data}
		if err := r.ensure(ctx, configMapGVK, cm); err != nil {
			return err
		}
	}
	st.rules.Written(res.ConfigMaps)
	r.Metrics.RuleConfigMaps.WithLabelValues(p.Namespace, p.Name).Set(float64(len(res.ConfigMaps)))
	return nil
}
