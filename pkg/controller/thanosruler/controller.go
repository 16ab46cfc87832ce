package thanosruler

import (
	"context"
	"fmt"
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
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/controller/watch"
	"github.com/lookout-operator/lookout/pkg/opmetrics"
	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Config is what the operator tells the controller at start.
type Config struct {
	Workload workload.Options
	// Scope is the set of namespaces whose ThanosRuler objects are reconciled
	// (--thanos-ruler-instance-namespaces, or --namespaces/--deny-namespaces; empty: all).
	Scope selection.Scope
	// RuleScope is the set of namespaces whose PrometheusRules may be selected
	// (--namespaces/--deny-namespaces).
	RuleScope selection.Scope
	// InstanceSelector limits the ThanosRuler objects reconciled
	// (--thanos-ruler-instance-selector).
	InstanceSelector labels.Selector
	// ControllerID: when set, only ThanosRuler objects whose layout.ControllerIDAnnotation
	// has this value are reconciled; when empty, only those without it (or with an empty
	// value).
	ControllerID string
	// Labels and Annotations are added to every generated object; prometheus-operator
	// also puts Labels in the pod labels and StatefulSet selector of a ThanosRuler.
	Labels, Annotations map[string]string
	// RepairPolicy is --repair-policy-for-statefulsets: generated.RepairNone (or empty),
	// RepairEvict or RepairDelete.
	RepairPolicy string
	// MaxConcurrentReconciles is the number of ThanosRuler objects reconciled in parallel.
	MaxConcurrentReconciles int
	// WatchGoverningServices watches the metadata of Services so that a deleted or
	// edited thanos-ruler-operated is restored at once (needs list and watch on
	// Services; without it the Service comes back with the next reconcile).
	WatchGoverningServices bool
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	// Client is the manager's client: cached reads (typed, or PartialObjectMetadata for
	// Secrets, ConfigMaps and Namespaces), direct writes.
	Client client.Client
	// APIReader reads Secrets, ConfigMaps and Services from the API server.
	APIReader client.Reader
	// StorageClasses reads the StorageClass spec.storage names, which must exist (nil: not
	// checked).
	StorageClasses client.Reader
	// Applier is the write path of every generated object.
	Applier *apply.Applier
	// Recorder receives events about ThanosRuler objects (nil: none).
	Recorder events.EventRecorder
	// Statuses receives the verdicts on PrometheusRules (nil: no per-object status).
	Statuses *resourcestatus.Store
	// Upstream are prometheus-operator's metrics of this controller
	// (controller="thanos"; nil: none).
	Upstream *opmetrics.Controller
	// Clock stamps status conditions (nil: the real clock).
	Clock clock.PassiveClock
	// Gate is held while a reconcile runs, so that status writes wait for it (nil: none).
	Gate *priority.Gate
}

// Reconciler reconciles ThanosRuler objects.
type Reconciler struct {
	Deps
	cfg Config
	// written is the status last applied to each object (resourcestatus.Written).
	written resourcestatus.Written[monitoringv1.ThanosRulerStatus]
	assets  *assets.APIStore
	// refs are the Secrets and ConfigMaps each ThanosRuler's last reconcile read.
	refs *watch.RefIndex

	mu    sync.Mutex
	state map[types.NamespacedName]*trState
}

// trState is what the controller remembers about one ThanosRuler between reconciles.
type trState struct {
	mu sync.Mutex
	// the compiled rule selector of the observed generation, guarded by selMu (map
	// functions read it while a reconcile holds mu).
	selMu         sync.Mutex
	selGeneration int64
	sel           *selection.Compiled
	rules         rulefiles.State
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
	if cfg.MaxConcurrentReconciles < 1 {
		cfg.MaxConcurrentReconciles = 1
	}
	if cfg.InstanceSelector == nil {
		cfg.InstanceSelector = labels.Everything()
	}
	return &Reconciler{Deps: d, cfg: cfg, assets: assets.NewAPIStore(d.Client, d.APIReader), refs: watch.NewRefIndex(), state: map[types.NamespacedName]*trState{}}
}

func (r *Reconciler) stateFor(nn types.NamespacedName) *trState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.state[nn]
	if s == nil {
		s = &trState{}
		r.state[nn] = s
	}
	return s
}

// forget drops everything remembered about a ThanosRuler that is gone or no longer ours.
func (r *Reconciler) forget(nn types.NamespacedName) {
	r.mu.Lock()
	delete(r.state, nn)
	r.mu.Unlock()
	r.refs.Forget(nn)
	r.written.Forget(nn)
	r.Statuses.Forget(owner(nn))
	r.Upstream.Forget(nn.String())
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

// writer is the shared write path with this operator's labels and annotations.
func (r *Reconciler) writer() *generated.Writer {
	return &generated.Writer{Applier: r.Applier, APIReader: r.APIReader, Labels: r.cfg.Labels, Annotations: r.cfg.Annotations}
}

// owner is the status-binding owner of a ThanosRuler.
func owner(nn types.NamespacedName) resourcestatus.Owner {
	return resourcestatus.Owner{Resource: monitoringv1.ThanosRulerName, Namespace: nn.Namespace, Name: nn.Name}
}

// OwnerState tells the PrometheusRule status controller whether a ThanosRuler named in a
// binding is this operator's, someone else's or gone.
func (r *Reconciler) OwnerState(ctx context.Context, o resourcestatus.Owner) (resourcestatus.OwnerState, error) {
	return resourcestatus.StateOf(o, monitoringv1.ThanosRulerName, func(nn types.NamespacedName) (bool, error) {
		t := &monitoringv1.ThanosRuler{}
		err := r.Client.Get(ctx, nn, t)
		return err == nil && r.managed(t), err
	})
}
