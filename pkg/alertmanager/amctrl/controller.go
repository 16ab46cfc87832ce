package amctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Config is what the operator tells the controller at start. Scope (in instance.Config)
// is --alertmanager-instance-namespaces, or --namespaces/--deny-namespaces.
type Config struct {
	instance.Config
	// ConfigScope is the set of namespaces whose AlertmanagerConfigs may be selected
	// (--alertmanager-config-namespaces, or --namespaces/--deny-namespaces).
	ConfigScope selection.Scope
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	instance.Deps
	// Generator generates the configuration (nil: NewGenerated, pkg/alertmanager/amcfg).
	Generator ConfigGenerator
}

// base is the shared lifecycle of a kind with one StatefulSet.
type base = instance.KindReconciler[monitoringv1.Alertmanager, *monitoringv1.Alertmanager, monitoringv1.AlertmanagerList, *monitoringv1.AlertmanagerList, amState, monitoringv1.AlertmanagerStatus]

// Reconciler reconciles Alertmanager objects: the shared lifecycle of a kind with one
// StatefulSet (instance.AlertmanagerKind) doing this controller's steps.
type Reconciler struct {
	*base
	// Generator: Deps.Generator.
	Generator ConfigGenerator
	cfg       Config
	assets    *assets.APIStore
}

// amState is what the controller remembers about one Alertmanager between reconciles.
type amState struct {
	gz write.Compressor
	// configHash names the configuration written last (package confighash; what the
	// reloader reports once Alertmanager loaded it), for the ConfigLoaded condition.
	configHash string
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call Reconcile
// directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	if d.Generator == nil {
		d.Generator = NewGenerated()
	}
	r := &Reconciler{Generator: d.Generator, cfg: cfg}
	r.base = instance.NewKind(d.Deps, &r.cfg.Config, instance.AlertmanagerKind, instance.Behavior[*monitoringv1.Alertmanager, amState]{
		Apply: r.reconcileObjects, Watches: r.watches, Hash: configHash, Reports: r.reports, Drop: r.forgetGenerated,
	})
	r.assets = assets.NewAPIStore(r.Client, r.APIReader)
	return r
}

// configHash is the hash of the configuration this operator wrote last, which the
// reloader reports once Alertmanager loaded it: unknown until it has written one since it
// started (Alertmanager's generated Secret holds the configuration compressed, with its
// templates, so no annotation holds the hash its reloader reports).
func configHash(_ *monitoringv1.Alertmanager, st *amState) string { return st.configHash }

// reports: a's reloaders report the configuration they loaded (workloadOptions).
func (r *Reconciler) reports(a *monitoringv1.Alertmanager) bool {
	opts, _ := r.workloadOptions(a)
	return opts.ReloaderReportConfig
}

// forgetGenerated drops the generator's cache of a gone Alertmanager.
func (r *Reconciler) forgetGenerated(nn types.NamespacedName) {
	if g, ok := r.Generator.(interface{ Forget(types.NamespacedName) }); ok {
		g.Forget(nn)
	}
}
