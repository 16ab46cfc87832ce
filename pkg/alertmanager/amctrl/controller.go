package amctrl

import (
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

// Reconciler reconciles Alertmanager objects: the shared lifecycle of a kind with one
// StatefulSet, with this kind's parts (kind.go).
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
	r.base = instance.NewKind(d.Deps, &r.cfg.Config, r.kind())
	r.assets = assets.NewAPIStore(r.Client, r.APIReader)
	return r
}
