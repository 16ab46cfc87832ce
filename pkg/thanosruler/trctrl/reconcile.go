package trctrl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/nslabels"
	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/reloader/dirhash"
	"github.com/lookout-operator/lookout/pkg/rules"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
)

// ReasonNoSelectedRules is the reason of a Reconciled condition that is True although the
// ThanosRuler selects no PrometheusRule (prometheus-operator's NoSelectedResources).
const ReasonNoSelectedRules = "NoSelectedResources"

// ReasonRemoteWriteWarnings is the reason of a Reconciled condition that is True although
// settings of spec.remoteWrite were left out or could not be checked for the Thanos
// version; the message lists them.
const ReasonRemoteWriteWarnings = "RemoteWriteWarnings"

// reconcileObjects generates and applies everything but the status. The returned error
// is nil, an *outcome.Note or a failure.
func (r *Reconciler) reconcileObjects(ctx context.Context, t *monitoringv1.ThanosRuler, st *trState) error {
	nn := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	// Everything the pod needs is checked before anything is written.
	if _, err := trplan.ThanosRulerStatefulSet(trplan.ThanosRulerInput{ThanosRuler: t}, r.cfg.Workload); err != nil {
		return outcome.Invalid(err)
	}
	sel, err := st.compile(t)
	if err != nil {
		return outcome.Invalid(err)
	}
	if err := write.CheckStorageClass(ctx, r.StorageClasses, t.Spec.Storage); err != nil {
		return err
	}
	thanosVersion, err := versions.ParseThanos(trplan.ThanosRulerVersion(t))
	if err != nil {
		return outcome.Invalid(fmt.Errorf("spec.version: %w", err))
	}

	// The Secret keys the pod mounts must exist, or the pod cannot start.
	refs := map[string]bool{}
	a := r.assets.For(ctx)
	for _, k := range trplan.ThanosRulerSecretKeys(t) {
		refs[watch.RefKey(string(promcfg.SecretAsset), t.Namespace, k.Selector.Name)] = true
		if _, err := a.Get(promcfg.AssetRef{Kind: promcfg.SecretAsset, Namespace: t.Namespace, Name: k.Selector.Name, Key: k.Selector.Key}); err != nil {
			r.Refs.Set(nn, refs)
			if errors.Is(err, promcfg.ErrUnavailable) {
				return outcome.ApplyFailed(fmt.Errorf("%s: %w", k.Field, err))
			}
			return outcome.Invalid(fmt.Errorf("%s: %w", k.Field, err))
		}
	}
	start := r.Clock.Now()
	rw, err := promcfg.RemoteWriteConfig(promcfg.RemoteWriteInput{
		Namespace: t.Namespace, RemoteWrite: t.Spec.RemoteWrite, Version: rules.ThanosEngine(thanosVersion).String(),
		Assets: a, TLSAssetsDir: layout.ThanosRulerTLSAssetsDir,
	})
	if rw != nil {
		for _, d := range rw.Dependencies {
			refs[watch.RefKey(string(d.Kind), d.Namespace, d.Name)] = true
		}
	}
	r.Refs.Set(nn, refs)
	if err != nil {
		if errors.Is(err, promcfg.ErrUnavailable) {
			return outcome.ApplyFailed(err)
		}
		return outcome.Invalid(err)
	}
	for _, w := range rw.Warnings {
		log.FromContext(ctx).Info("remote-write setting left out", "warning", w)
	}

	nsLabels, err := nslabels.List(ctx, r.Client)
	if err != nil {
		return outcome.ApplyFailed(err)
	}
	res, err := st.rules.Reconcile(ctx, r.Client, r.APIReader, rulefiles.Input{
		Options:         rules.ThanosOptionsFor(trplan.ThanosRulerVersion(t)),
		Enforcement:     rules.ThanosEnforcementOf(t),
		Selector:        sel,
		Scope:           r.cfg.RuleScope,
		NamespaceLabels: nsLabels,
		Namespace:       t.Namespace,
		ConfigMapName:   layout.ThanosRuler(t.Name).RuleConfigMap,
	})
	if err != nil {
		return err
	}
	r.Metrics.GenerateSeconds.WithLabelValues(t.Namespace, t.Name).Observe(r.Clock.Since(start).Seconds())
	written := func() {
		st.rules.Written(res.ConfigMaps)
		if r.cfg.Workload.ReloaderReportConfig {
			st.rulesHash = dirhash.OfData(res.ConfigMaps...)
		}
	}
	pl, err := trplan.ThanosRulerPlan(trplan.ThanosRulerPlanInput{ThanosRuler: t, Rules: res.ConfigMaps, RulesWritten: written,
		RemoteWrite: rw.Config, TLSAssets: rw.TLSAssets, ManagesRoles: r.cfg.Workload.ReloaderReportConfig}, r.cfg.Workload)
	if err != nil {
		return outcome.Invalid(err)
	}
	if err := r.ApplyPlan(ctx, t, pl); err != nil {
		return err
	}
	r.Metrics.RuleConfigMaps.WithLabelValues(t.Namespace, t.Name).Set(float64(len(res.ConfigMaps)))
	r.publish(t, res.Verdicts)
	if selected(res.Verdicts) == 0 {
		return &outcome.Note{Reason: ReasonNoSelectedRules, Message: "no PrometheusRule is selected: the ruler runs without rules"}
	}
	if len(rw.Warnings) > 0 {
		return &outcome.Note{Reason: ReasonRemoteWriteWarnings, Message: strings.Join(rw.Warnings, "; ")}
	}
	return nil
}

// selected counts the verdicts of rules the ThanosRuler selects (served or rejected).
func selected(vs []selection.Verdict) int {
	n := 0
	for _, v := range vs {
		if v.Reason == selection.Accepted || v.Reason == selection.InvalidConfiguration {
			n++
		}
	}
	return n
}

// publish hands the verdicts on PrometheusRules to the status store and counts them as
// prometheus-operator does (the rejected among the selected).
func (r *Reconciler) publish(t *monitoringv1.ThanosRuler, vs []selection.Verdict) {
	nn := types.NamespacedName{Namespace: t.Namespace, Name: t.Name}
	_, rejected := r.Publish(nn, monitoringv1.PrometheusRuleKind, vs)
	r.Upstream.SetResources(nn.String(), monitoringv1.PrometheusRuleKind, selected(vs), rejected)
}
