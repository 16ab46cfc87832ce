package trctrl

import (
	"fmt"
	"sync"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/thanosruler/trplan"
)

// Config is what the operator tells the controller at start. Scope (in instance.Config)
// is --thanos-ruler-instance-namespaces, or --namespaces/--deny-namespaces; Labels also
// go to a ThanosRuler's pod labels and StatefulSet selector, as prometheus-operator puts
// them there.
type Config struct {
	instance.Config
	// RuleScope is the set of namespaces whose PrometheusRules may be selected
	// (--namespaces/--deny-namespaces).
	RuleScope selection.Scope
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps = instance.Deps

// base is the shared lifecycle of a kind with one StatefulSet.
type base = instance.KindReconciler[monitoringv1.ThanosRuler, *monitoringv1.ThanosRuler, monitoringv1.ThanosRulerList, *monitoringv1.ThanosRulerList, trState, monitoringv1.ThanosRulerStatus]

// Reconciler reconciles ThanosRuler objects: the shared lifecycle of a kind with one
// StatefulSet (instance.ThanosRulerKind) doing this controller's steps.
type Reconciler struct {
	*base
	cfg    Config
	assets *assets.APIStore
}

// trState is what the controller remembers about one ThanosRuler between reconciles.
type trState struct {
	// the compiled rule selector of the observed generation, guarded by selMu (map
	// functions read it while a reconcile holds the object's lock).
	selMu         sync.Mutex
	selGeneration int64
	sel           *selection.Compiled
	rules         rulefiles.State
	// rulesHash is the hash of the rule ConfigMaps written last (package dirhash: what
	// the reloader reports once the ruler loaded them), for the ConfigLoaded condition.
	rulesHash string
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call Reconcile
// directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	r := &Reconciler{cfg: cfg}
	r.base = instance.NewKind(d, &r.cfg.Config, instance.ThanosRulerKind, instance.Behavior[*monitoringv1.ThanosRuler, trState]{
		Apply: r.reconcileObjects, Watches: r.watches, Hash: rulesHash, Reports: r.reports,
	})
	r.assets = assets.NewAPIStore(r.Client, r.APIReader)
	return r
}

// rulesHash is the hash of the rule ConfigMaps this operator wrote last (package
// dirhash), which the reloader reports once the ruler accepted their reload: unknown
// until the operator has written them since it started.
func rulesHash(_ *monitoringv1.ThanosRuler, st *trState) string { return st.rulesHash }

// reports: t's reloaders report the rules they loaded, with t's own service account
// only (trplan.ThanosRulerOptions).
func (r *Reconciler) reports(t *monitoringv1.ThanosRuler) bool {
	return trplan.ThanosRulerOptions(t, r.cfg.Workload).ReloaderReportConfig
}

// compile returns t's compiled rule selector, recompiling on a new generation.
func (s *trState) compile(t *monitoringv1.ThanosRuler) (*selection.Compiled, error) {
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if s.sel != nil && s.selGeneration == t.Generation && t.Generation != 0 {
		return s.sel, nil
	}
	c, err := selection.Compile(selection.Selector{Kind: monitoringv1.PrometheusRuleKind, Labels: t.Spec.RuleSelector, Namespaces: t.Spec.RuleNamespaceSelector, OwnNamespace: t.Namespace})
	if err != nil {
		return nil, fmt.Errorf("spec.ruleSelector or spec.ruleNamespaceSelector: %w", err)
	}
	s.sel, s.selGeneration = c, t.Generation
	return c, nil
}
