package promctrl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/nslabels"
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// unmanagedConfiguration reports whether p's config Secret is left to its user: p selects
// no ServiceMonitors, PodMonitors, Probes or ScrapeConfigs at all, as prometheus-operator
// decides it (unless --disable-unmanaged-prometheus-configuration).
// A PrometheusAgent's configuration is always managed, as upstream manages it.
func (r *Reconciler) unmanagedConfiguration(p *promserver.Server) bool {
	if r.kind.agent() || r.cfg.DisableUnmanagedConfiguration {
		return false
	}
	for _, k := range monitorkind.All {
		if sel, _ := k.Selectors(p.Spec); sel != nil {
			return false
		}
	}
	return true
}

// candidates lists the monitors of every kind from the cache.
func (r *Reconciler) candidates(ctx context.Context, st *promState) (pipeline.Candidates, error) {
	var c pipeline.Candidates
	for i, k := range monitorkind.All {
		objs, err := r.listMonitors(ctx, k, &st.order[i])
		if err != nil {
			return c, fmt.Errorf("listing %ss: %w", k.Name, err)
		}
		k.Put(&c, objs)
	}
	return c, nil
}

// listMonitors returns every cached object of a monitor kind: the informer store's own
// pointers, in order's order while the store holds the same objects, when the cache has
// one store (cachedObjects), else a List without deep copies.
// Either way the objects are shared with the cache and only read.
func (r *Reconciler) listMonitors(ctx context.Context, k *monitorkind.Kind, order *storeOrder) ([]client.Object, error) {
	if objs, ok, err := cachedObjects(ctx, r.Informers, k.New(), order); err != nil || ok {
		return objs, err
	}
	list := k.NewList()
	if err := r.Client.List(ctx, list, client.UnsafeDisableDeepCopy); err != nil {
		return nil, err
	}
	return k.Items(list), nil
}

// reconcileObjects generates and applies everything but the status. The returned error
// is nil, a *note (success with something to say) or a failure.
func (r *Reconciler) reconcileObjects(ctx context.Context, p *promserver.Server, st *promState) error {
	sel, err := st.compile(p)
	if err != nil {
		return invalid(err)
	}
	if err := write.CheckStorageClass(ctx, r.StorageClasses, p.Spec.Storage); err != nil {
		return err
	}
	nsLabels, err := r.namespaceLabels(ctx)
	if err != nil {
		return applyFailed(err)
	}
	var noRemoteWrite error
	if r.kind.agent() && len(p.Spec.RemoteWrite) == 0 {
		// prometheus-operator runs such an agent; so does Lookout, saying what it lacks.
		noRemoteWrite = &note{Reason: ReasonNoRemoteWrite, Message: "spec.remoteWrite is empty: the agent scrapes its targets but keeps no data of its own and sends its samples nowhere; give at least one remote-write endpoint"}
	}
	if err := r.checkDaemonSetMode(p); err != nil {
		return err
	}
	if err := r.checkShardNames(ctx, p); err != nil {
		return err
	}
	start := time.Now()

	rules := &rulefiles.Result{}
	if !r.kind.agent() {
		if rules, err = r.reconcileRules(ctx, p, st, sel, nsLabels); err != nil {
			return err
		}
	}
	cands, err := r.candidates(ctx, st)
	if err != nil {
		return applyFailed(err)
	}
	run := pipeline.Run(st.generator, pipeline.Input{
		Prometheus: p, Selectors: sel, Candidates: cands, Scope: r.cfg.Scope, NamespaceLabels: nsLabels,
		Assets: r.assets.For(ctx), RuleFiles: layout.Prometheus(p.Name).RuleFileGlobs(slots(len(rules.ConfigMaps))), // ignored for agents
	})
	res, err := run.Result, run.Err
	if err != nil {
		if errors.Is(err, promcfg.ErrUnavailable) {
			return applyFailed(err)
		}
		return invalid(err)
	}
	r.Metrics.GenerateSeconds.WithLabelValues(p.Namespace, p.Name).Observe(time.Since(start).Seconds())
	if !st.generatedOnce {
		st.generatedOnce = true
		log.FromContext(ctx).Info("first configuration generated", "monitors", res.Monitors, "rendered", res.Rendered, "seconds", time.Since(start).Seconds())
	}
	r.trackReferences(p, res)

	wopts, wnote := r.workloadOptions(p)
	dsPods, err := r.daemonSetPods(ctx, p, wopts)
	if err != nil {
		return applyFailed(err)
	}
	in := promplan.PlanInput{Input: promplan.Input{Prometheus: p, DaemonSetPods: dsPods}, TLSAssets: res.TLSAssets,
		ManagesRoles: r.cfg.Workload.ManagesReloaderRoles()}
	if !r.kind.agent() {
		in.Rules, in.RulesWritten = rules.ConfigMaps, func() { st.rules.Written(rules.ConfigMaps) }
	}
	var outcome error
	configHash := res.Hash
	if r.unmanagedConfiguration(p) {
		var c write.Compressor
		gz, err := c.Compress("", nil)
		if err != nil {
			return applyFailed(err)
		}
		in.Config, in.ConfigHashes, in.ConfigUnmanaged = [][]byte{gz}, []string{"unmanaged"}, true
		st.configHash = instance.UnmanagedHash
		outcome = &note{Reason: ReasonConfigurationUnmanaged, Message: "the operator does not manage the configuration Secret because the Prometheus has no serviceMonitorSelector, podMonitorSelector, probeSelector or scrapeConfigSelector; unmanaged configuration is deprecated upstream: use additionalScrapeConfigs or ScrapeConfig objects"}
	} else {
		s, err := r.splitConfig(ctx, p, st, res)
		if err != nil {
			return err
		}
		in.Config, in.ConfigHashes, configHash = s.gz, s.plainHashes, s.hash
		in.ConfigWritten = func() { st.configParts, st.configHash = len(s.gz), s.hash }
	}
	pl, err := promplan.PrometheusPlan(in, wopts)
	if err != nil {
		return invalid(err)
	}
	if err := r.ApplyPlan(ctx, p, pl); err != nil {
		return err
	}
	if !r.kind.agent() {
		r.Metrics.RuleConfigMaps.WithLabelValues(p.Namespace, p.Name).Set(float64(len(rules.ConfigMaps)))
	}
	if len(pl.Warnings) > 0 && outcome == nil {
		outcome = &note{Reason: ReasonShardsNotCreated, Message: strings.Join(pl.Warnings, "; ")}
	}
	if wnote != nil && outcome == nil {
		outcome = wnote
	}
	if noRemoteWrite != nil && outcome == nil {
		outcome = noRemoteWrite
	}
	if !p.DaemonSetMode() {
		if err := r.deleteDaemonSet(ctx, p); err != nil {
			return err
		}
	}
	recheck, err := r.deleteSurplusShards(ctx, p)
	if err != nil {
		return err
	}
	st.recheckAfter = recheck

	for kind, vs := range run.Verdicts {
		r.publish(p, kind, vs)
	}
	if !r.kind.agent() {
		r.publish(p, monitoringv1.PrometheusRuleKind, rules.Verdicts)
	}
	r.Metrics.SetConfigInfo(p.Namespace, p.Name, configHash)
	return outcome
}

// publish hands one kind's verdicts to the status store and counts them.
func (r *Reconciler) publish(p *promserver.Server, kind string, vs []selection.Verdict) {
	sel, rej := r.Publish(nnOf(p), kind, vs)
	// prometheus-operator counts the rejected among the selected.
	r.Upstream.SetResources(nnOf(p).String(), kind, sel+rej, rej)
}

// namespaceLabels reads every namespace's labels from the metadata cache.
func (r *Reconciler) namespaceLabels(ctx context.Context) (selection.NamespaceLabels, error) {
	return nslabels.List(ctx, r.Client)
}

// trackReferences remembers which Secrets and ConfigMaps p read.
func (r *Reconciler) trackReferences(p *promserver.Server, res *promcfg.Result) {
	keys := map[string]bool{}
	for _, d := range res.Dependencies {
		keys[watch.RefKey(string(d.Kind), d.Namespace, d.Name)] = true
	}
	r.Refs.Set(nnOf(p), keys)
}
