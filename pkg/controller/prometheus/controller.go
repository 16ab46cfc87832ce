package prometheus

import (
	"sync"
	"time"

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
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Config is what the operator tells the controller at start.
type Config struct {
	// Kind is the kind reconciled (nil: PrometheusKind).
	Kind     *Kind
	Workload workload.Options
	// Scope is the set of watched namespaces (empty: all).
	Scope selection.Scope
	// InstanceSelector limits the Prometheus (or PrometheusAgent) objects reconciled.
	InstanceSelector labels.Selector
	// ControllerID: when set, only Prometheus objects whose layout.ControllerIDAnnotation has this
	// value are reconciled; when empty, only those without the annotation (or with an
	// empty value).
	ControllerID string
	// Labels and Annotations are added to every generated object (the operator's own
	// labels win on a clash).
	Labels, Annotations map[string]string
	// DisableUnmanagedConfiguration generates the configuration even when a Prometheus has
	// no ServiceMonitor, PodMonitor, Probe or ScrapeConfig selector; by default such a
	// Prometheus's config Secret is left to its user, as prometheus-operator does.
	DisableUnmanagedConfiguration bool
	// MaxSecretData is what one generated config Secret may hold before the configuration
	// is spread over several (0: generated.MaxSecretData, the API server's limit less
	// room for metadata); tests set less.
	MaxSecretData int
	// MaxConcurrentReconciles is the number of Prometheus objects reconciled in parallel.
	MaxConcurrentReconciles int
	// ShardRetention honours spec.shardRetentionPolicy (prometheus-operator's
	// PrometheusShardRetentionPolicy feature gate); when false, the policy is ignored and
	// the StatefulSets of shards scaled away are deleted.
	ShardRetention bool
	// RepairPolicy is --repair-policy-for-statefulsets: RepairNone (or empty),
	// RepairEvict or RepairDelete.
	RepairPolicy string
	// WatchGoverningServices watches the metadata of Services so that a deleted
	// prometheus-operated Service is recreated at once; it needs list and watch on
	// Services, which prometheus-operator's RBAC does not grant.
	WatchGoverningServices bool
	// AgentDaemonSet allows PrometheusAgents with spec.mode DaemonSet (prometheus-operator's
	// PrometheusAgentDaemonSet feature gate) and watches the DaemonSets they own.
	AgentDaemonSet bool
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	// Client is the manager's client: cached reads (typed, or PartialObjectMetadata for
	// Secrets, ConfigMaps and Namespaces), direct writes.
	Client client.Client
	// APIReader reads Secrets and ConfigMaps straight from the API server.
	APIReader client.Reader
	// Informers, the manager's cache, lets a reconcile read the monitors from the
	// informers' stores without copying them (nil: through Client).
	Informers InformerSource
	// StorageClasses reads the StorageClass spec.storage names, which must exist (nil: not
	// checked; the operator may not read StorageClasses).
	StorageClasses client.Reader
	// Applier is the write path of every generated object.
	Applier *apply.Applier
	// Recorder receives events about Prometheus objects (nil: none).
	Recorder events.EventRecorder
	// Statuses receives the verdicts on monitors and rules (nil: no per-object status).
	Statuses *resourcestatus.Store
	// Metrics are this instance's metrics.
	Metrics *Metrics
	// Upstream are prometheus-operator's metrics of this controller (nil: none).
	Upstream *opmetrics.Controller
	// Clock stamps status conditions (nil: the real clock).
	Clock clock.PassiveClock
	// Gate is held while a reconcile runs, so that status writes wait for it (nil: none).
	Gate *priority.Gate
}

// Reconciler reconciles Prometheus objects, or PrometheusAgent objects (Config.Kind).
type Reconciler struct {
	Deps
	cfg Config
	// written is the status last applied to each object (resourcestatus.Written).
	written resourcestatus.Written[monitoringv1.PrometheusStatus]
	kind    *Kind
	assets  *assets.APIStore
	refs    *watch.RefIndex

	mu    sync.Mutex
	state map[types.NamespacedName]*promState
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call Reconcile
// directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	if cfg.Kind == nil {
		cfg.Kind = PrometheusKind
	}
	if d.Metrics == nil {
		d.Metrics, _ = NewMetrics(nil, cfg.Kind)
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
	return &Reconciler{
		Deps:   d,
		cfg:    cfg,
		kind:   cfg.Kind,
		assets: assets.NewAPIStore(d.Client, d.APIReader),
		refs:   watch.NewRefIndex(),
		state:  map[types.NamespacedName]*promState{},
	}
}

// promState is what the controller remembers about one Prometheus between reconciles.
type promState struct {
	mu        sync.Mutex
	generator *promcfg.Generator
	gz        generated.Compressor
	// partGz compress the parts of a configuration spread over several Secrets, and
	// configParts is how many Secrets it took at the last write (0: not known yet).
	partGz      []generated.Compressor
	configParts int
	// partBufs hold the plain parts of the last split, reused by the next.
	partBufs [][]byte
	// lastSplit is the last split and lastSplitKey what it was made from.
	lastSplit    splitConfig
	lastSplitKey splitKey
	// selectors compiled for the observed generation, guarded by selMu (map functions
	// read them while a reconcile holds mu).
	selMu         sync.Mutex
	selGeneration int64
	sel           *pipeline.Selectors
	rules         rulefiles.State
	// order is each monitor kind's store order at the last reconcile (cachedObjects).
	order struct{ serviceMonitors, podMonitors, probes, scrapeConfigs storeOrder }
	// configHash is the input hash of the configuration Secret written last
	// (unmanagedHash for a user's), for the ConfigLoaded condition.
	configHash string
	// recheckAfter, when positive, is when the last reconcile wants to run again (the
	// deletion deadline of a retained shard).
	recheckAfter time.Duration
}

func (r *Reconciler) stateFor(nn types.NamespacedName) *promState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.state[nn]
	if s == nil {
		gen := promcfg.NewGenerator()
		// The configuration as pieces (ADR 21); only a configuration spread over several
		// Secrets is joined into one buffer, to be cut.
		gen.Pieces = true
		s = &promState{generator: gen}
		r.state[nn] = s
	}
	return s
}

// forget drops everything remembered about a Prometheus that is gone or no longer ours.
func (r *Reconciler) forget(nn types.NamespacedName) {
	r.mu.Lock()
	delete(r.state, nn)
	r.mu.Unlock()
	r.written.Forget(nn)
	r.refs.Forget(nn)
	r.Statuses.Forget(r.owner(nn))
	r.Metrics.forget(nn.Namespace, nn.Name)
	r.Upstream.Forget(nn.String())
}

func (r *Reconciler) owner(nn types.NamespacedName) resourcestatus.Owner {
	return resourcestatus.Owner{Resource: r.kind.Resource, Namespace: nn.Namespace, Name: nn.Name}
}

// compile returns the Prometheus's compiled selectors, recompiling on a new generation.
func (s *promState) compile(p *monitoringv1.Prometheus) (*pipeline.Selectors, error) {
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if s.sel != nil && s.selGeneration == p.Generation && p.Generation != 0 {
		return s.sel, nil
	}
	sel, err := pipeline.Compile(p)
	if err != nil {
		return nil, err
	}
	s.sel, s.selGeneration = sel, p.Generation
	return s.sel, nil
}
