package promctrl

import (
	"sync"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/controller/rulefiles"
	"github.com/lookout-operator/lookout/pkg/controller/write"
	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/pipeline"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Config is what the operator tells the controller at start.
type Config struct {
	instance.Config
	// Kind is the kind reconciled (nil: PrometheusKind).
	Kind *Kind
	// DisableUnmanagedConfiguration generates the configuration even when a Prometheus has
	// no ServiceMonitor, PodMonitor, Probe or ScrapeConfig selector; by default such a
	// Prometheus's config Secret is left to its user, as prometheus-operator does.
	DisableUnmanagedConfiguration bool
	// MaxSecretData is what one generated config Secret may hold before the configuration
	// is spread over several (0: write.MaxSecretData, the API server's limit less
	// room for metadata); tests set less.
	MaxSecretData int
	// ShardRetention honours spec.shardRetentionPolicy (prometheus-operator's
	// PrometheusShardRetentionPolicy feature gate); when false, the policy is ignored and
	// the StatefulSets of shards scaled away are deleted.
	ShardRetention bool
	// TopologySharding honours spec.shardingStrategy.mode Topology (prometheus-operator's
	// PrometheusTopologySharding feature gate); when false, the strategy is ignored and
	// the shards share the targets by address, as prometheus-operator does.
	TopologySharding bool
	// PodZoneLabels: the API server (Kubernetes 1.35 and later) labels bound pods with
	// their node's zone; topology sharding then reads the pod label
	// (promcfg.Generator.PodZoneLabels).
	PodZoneLabels bool
	// AgentDaemonSet allows PrometheusAgents with spec.mode DaemonSet (prometheus-operator's
	// PrometheusAgentDaemonSet feature gate) and watches the DaemonSets they own.
	AgentDaemonSet bool
	// MaxNamespaceConfigBytes bounds the scrape configuration the monitors of one
	// namespace may add (promcfg.Generator.MaxNamespaceBytes; 0: no bound).
	MaxNamespaceConfigBytes int
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	instance.Deps
	// Informers, the manager's cache, lets a reconcile read the monitors from the
	// informers' stores without copying them (nil: through Client).
	Informers InformerSource
}

// Reconciler reconciles Prometheus objects, or PrometheusAgent objects (Config.Kind):
// the shared instance lifecycle with this kind's steps (steps.go).
type Reconciler struct {
	*instance.Reconciler[*promserver.Server, promState, monitoringv1.PrometheusStatus]
	// Informers: Deps.Informers.
	Informers InformerSource
	cfg       Config
	kind      *Kind
	assets    *assets.APIStore
	// first records the objects reconciled since the start (AfterFirstPass).
	first *firstPass
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call Reconcile
// directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	if cfg.Kind == nil {
		cfg.Kind = PrometheusKind
	}
	r := &Reconciler{Informers: d.Informers, cfg: cfg, kind: cfg.Kind, first: newFirstPass()}
	r.Reconciler = instance.New(d.Deps, &r.cfg.Config, instance.Info{
		Kind: cfg.Kind.Kind, APIVersion: cfg.Kind.APIVersion, Resource: cfg.Kind.Resource,
		Paused: "spec.paused is set: the operator leaves the StatefulSets and configuration as they are",
	}, steps{r})
	r.assets = assets.NewAPIStore(r.Client, r.APIReader)
	return r
}

// promState is what the controller remembers about one Prometheus between reconciles.
type promState struct {
	generator *promcfg.Generator
	gz        write.Compressor
	// configParts is how many Secrets the configuration took at the last write (0: not
	// known yet), and splits are the state of its last split into them (configparts.go).
	configParts int
	splits      map[int]*splitState
	// selectors compiled for the observed generation, guarded by selMu (map functions
	// read them while a reconcile holds the object's lock).
	selMu         sync.Mutex
	selGeneration int64
	sel           *pipeline.Selectors
	rules         rulefiles.State
	// order is each monitor kind's store order at the last reconcile (cachedObjects),
	// in monitorkind.All's order.
	order []storeOrder
	// generatedOnce is set after the first generation (logged with what it rendered).
	generatedOnce bool
	// configHash is the input hash of the configuration Secret written last
	// (instance.UnmanagedHash for a user's), for the ConfigLoaded condition.
	configHash string
	// recheckAfter, when positive, is when the last reconcile wants to run again (the
	// deletion deadline of a retained shard).
	recheckAfter time.Duration
}

// newState is the state of a newly seen Prometheus whose namespaces may add
// namespaceBytes of configuration each (0: no bound), in a cluster that labels pods
// with their zone or not (podZoneLabels).
func newState(namespaceBytes int, podZoneLabels bool) *promState {
	gen := promcfg.NewGenerator()
	gen.MaxNamespaceBytes = namespaceBytes
	gen.PodZoneLabels = podZoneLabels
	// The configuration as pieces (ADR 21); only a configuration spread over several
	// Secrets is joined into one buffer, to be cut.
	gen.Pieces = true
	return &promState{generator: gen, order: make([]storeOrder, len(monitorkind.All))}
}

// compile returns the Prometheus's compiled selectors, recompiling on a new generation.
func (s *promState) compile(p *promserver.Server) (*pipeline.Selectors, error) {
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
