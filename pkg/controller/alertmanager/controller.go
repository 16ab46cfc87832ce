package alertmanager

import (
	"context"
	"sync"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/generated"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/opmetrics"
	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Config is what the operator tells the controller at start.
type Config struct {
	Workload workload.Options
	// Scope is the set of namespaces whose Alertmanager objects are reconciled
	// (--alertmanager-instance-namespaces, or --namespaces/--deny-namespaces; empty: all).
	Scope selection.Scope
	// ConfigScope is the set of namespaces whose AlertmanagerConfigs may be selected
	// (--alertmanager-config-namespaces, or --namespaces/--deny-namespaces).
	ConfigScope selection.Scope
	// InstanceSelector limits the Alertmanager objects reconciled
	// (--alertmanager-instance-selector).
	InstanceSelector labels.Selector
	// ControllerID: when set, only Alertmanager objects whose layout.ControllerIDAnnotation has
	// this value are reconciled; when empty, only those without it (or with an empty
	// value).
	ControllerID string
	// Labels and Annotations are added to every generated object.
	Labels, Annotations map[string]string
	// MaxConcurrentReconciles is the number of Alertmanager objects reconciled in
	// parallel.
	MaxConcurrentReconciles int
	// WatchGoverningServices watches the metadata of Services so that a deleted or
	// edited alertmanager-operated is restored at once (needs list and watch on
	// Services; without it the Service comes back with the next reconcile).
	WatchGoverningServices bool
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	// Client is the manager's client: cached reads (typed, or PartialObjectMetadata for
	// Secrets, ConfigMaps and Namespaces), direct writes.
	Client client.Client
	// APIReader reads Secrets (the config Secret) and Services from the API server.
	APIReader client.Reader
	// StorageClasses reads the StorageClass spec.storage names, which must exist (nil: not
	// checked; the operator may not read StorageClasses).
	StorageClasses client.Reader
	// Applier is the write path of every generated object.
	Applier *apply.Applier
	// Recorder receives events about Alertmanager objects (nil: none).
	Recorder events.EventRecorder
	// Statuses receives the verdicts on AlertmanagerConfigs (nil: no per-object status).
	Statuses *resourcestatus.Store
	// Generator generates the configuration (nil: NewGenerated, pkg/amcfg).
	Generator ConfigGenerator
	// Upstream are prometheus-operator's metrics of this controller
	// (controller="alertmanager"; nil: none).
	Upstream *opmetrics.Controller
	// Clock stamps status conditions (nil: the real clock).
	Clock clock.PassiveClock
	// Gate is held while a reconcile runs, so that status writes wait for it (nil: none).
	Gate *priority.Gate
}

// Reconciler reconciles Alertmanager objects.
type Reconciler struct {
	Deps
	cfg Config
	// written is the status last applied to each object (resourcestatus.Written).
	written resourcestatus.Written[monitoringv1.AlertmanagerStatus]
	assets  *assets.APIStore

	mu    sync.Mutex
	state map[types.NamespacedName]*amState
	// refs are the Secrets and ConfigMaps each Alertmanager's last generation read, so
	// that a change of one reconciles it.
	refs *watch.RefIndex
}

// amState is what the controller remembers about one Alertmanager between reconciles.
type amState struct {
	mu sync.Mutex
	gz generated.Compressor
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call Reconcile
// directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	if d.Applier == nil {
		d.Applier = apply.New(d.Client, nil, d.Clock)
	}
	if d.Generator == nil {
		d.Generator = NewGenerated()
	}
	if cfg.MaxConcurrentReconciles < 1 {
		cfg.MaxConcurrentReconciles = 1
	}
	if cfg.InstanceSelector == nil {
		cfg.InstanceSelector = labels.Everything()
	}
	return &Reconciler{Deps: d, cfg: cfg, assets: assets.NewAPIStore(d.Client, d.APIReader), state: map[types.NamespacedName]*amState{}, refs: watch.NewRefIndex()}
}

func (r *Reconciler) stateFor(nn types.NamespacedName) *amState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.state[nn]
	if s == nil {
		s = &amState{}
		r.state[nn] = s
	}
	return s
}

func (r *Reconciler) forget(nn types.NamespacedName) {
	r.mu.Lock()
	delete(r.state, nn)
	r.mu.Unlock()
	r.refs.Forget(nn)
	r.written.Forget(nn)
	if g, ok := r.Generator.(interface{ Forget(types.NamespacedName) }); ok {
		g.Forget(nn)
	}
	r.Statuses.Forget(owner(nn))
	r.Upstream.Forget(nn.String())
}

// writer is the shared write path with this operator's labels and annotations.
func (r *Reconciler) writer() *generated.Writer {
	return &generated.Writer{Applier: r.Applier, APIReader: r.APIReader, Labels: r.cfg.Labels, Annotations: r.cfg.Annotations}
}

// owner is the status-binding owner of an Alertmanager.
func owner(nn types.NamespacedName) resourcestatus.Owner {
	return resourcestatus.Owner{Resource: monitoringv1.AlertmanagerName, Namespace: nn.Namespace, Name: nn.Name}
}

// OwnerState tells the AlertmanagerConfig status controller whether an Alertmanager
// named in a binding is this operator's, someone else's or gone.
func (r *Reconciler) OwnerState(ctx context.Context, o resourcestatus.Owner) (resourcestatus.OwnerState, error) {
	return resourcestatus.StateOf(o, monitoringv1.AlertmanagerName, func(nn types.NamespacedName) (bool, error) {
		a := &monitoringv1.Alertmanager{}
		err := r.Client.Get(ctx, nn, a)
		return err == nil && r.managed(a), err
	})
}
