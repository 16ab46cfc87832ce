package amctrl

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

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

// Reconciler reconciles Alertmanager objects: the shared instance lifecycle with this
// kind's steps (steps.go).
type Reconciler struct {
	*instance.Reconciler[*monitoringv1.Alertmanager, amState, monitoringv1.AlertmanagerStatus]
	// Generator: Deps.Generator.
	Generator ConfigGenerator
	cfg       Config
	assets    *assets.APIStore
}

// amState is what the controller remembers about one Alertmanager between reconciles.
type amState struct {
	gz write.Compressor
	// configHash is the hex sha256 of the configuration written last (what the
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
	r.Reconciler = instance.New(d.Deps, &r.cfg.Config, instance.Info{
		Kind: monitoringv1.AlertmanagersKind, APIVersion: monitoringv1.SchemeGroupVersion.String(), Resource: monitoringv1.AlertmanagerName,
		Paused: "spec.paused is set: the operator leaves the StatefulSet and configuration as they are",
	}, steps(r))
	r.assets = assets.NewAPIStore(r.Client, r.APIReader)
	return r
}
