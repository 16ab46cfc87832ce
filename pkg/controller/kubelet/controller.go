package kubelet

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/kubelet"
)

// DefaultSyncPeriod is upstream's --kubelet-sync-period.
const DefaultSyncPeriod = 3 * time.Minute

// Config is what the operator tells the controller at start; the flags are upstream's.
type Config struct {
	// Namespace and Name of the kubelet Service, Endpoints and EndpointSlices
	// (--kubelet-service=NAMESPACE/NAME; see ParseService).
	Namespace, Name string
	// Selector selects the nodes listed (--kubelet-selector; nil: every node). The API
	// server applies it to the node watch.
	Selector labels.Selector
	// Endpoints writes the Endpoints object (--kubelet-endpoints, upstream's default true).
	Endpoints bool
	// EndpointSlices writes EndpointSlices (--kubelet-endpointslice, default false). When
	// the operator may not write EndpointSlices, SetupWithManager turns it off with a
	// warning, as upstream does.
	EndpointSlices bool
	// HTTPMetrics lists the kubelet's read-only port http-metrics 10255
	// (--kubelet-http-metrics, default true).
	HTTPMetrics bool
	// AddressPriority picks the node addresses (--kubelet-node-address-priority,
	// internal or external; empty: internal).
	AddressPriority kubelet.AddressPriority
	// SyncPeriod is how often the objects are checked without any change seen
	// (--kubelet-sync-period; 0: DefaultSyncPeriod).
	SyncPeriod time.Duration
	// Labels and Annotations are the operator-wide --labels and --annotations, added to
	// every object (the kubelet labels win on a clash).
	Labels, Annotations map[string]string
}

// DefaultConfig is upstream's defaults, without a Service (the controller is off unless
// --kubelet-service is given).
func DefaultConfig() Config {
	return Config{Endpoints: true, HTTPMetrics: true, AddressPriority: kubelet.InternalFirst, SyncPeriod: DefaultSyncPeriod}
}

// ParseService splits --kubelet-service's NAMESPACE/NAME.
func ParseService(s string) (namespace, name string, err error) {
	ns, n, ok := strings.Cut(s, "/")
	if !ok || ns == "" || n == "" || strings.Contains(n, "/") {
		return "", "", fmt.Errorf("kubelet service %q: want NAMESPACE/NAME", s)
	}
	return ns, n, nil
}

// Validate reports a configuration the controller cannot run with.
func (c Config) Validate() error {
	if c.SyncPeriod < 0 {
		return errors.New("the kubelet sync period must not be negative")
	}
	return c.options().Validate()
}

func (c Config) options() kubelet.Options {
	return kubelet.Options{
		Namespace: c.Namespace, Name: c.Name,
		Endpoints: c.Endpoints, EndpointSlices: c.EndpointSlices, HTTPMetrics: c.HTTPMetrics,
		AddressPriority: c.AddressPriority, Labels: c.Labels, Annotations: c.Annotations,
	}
}

// Deps are the collaborators a Reconciler works with; tests give fakes.
type Deps struct {
	// Client reads the selected Nodes and the Service, Endpoints and EndpointSlices, and
	// writes through the Applier. Leave it nil in the operator: SetupWithManager then
	// makes one whose Nodes come from a cache of this controller's own (the selected
	// nodes only, trimmed to what is read) and whose other reads go to the API server.
	Client client.Client
	// Applier is the write path (nil: one over Client, counting into WriteMetrics).
	Applier *apply.Applier
	// WriteMetrics counts the Applier's writes when the Reconciler makes the Applier.
	WriteMetrics *apply.Metrics
	// Cache is where SetupWithManager takes its watches from when Client is given (nil:
	// the manager's cache).
	Cache cache.Cache
	// Recorder receives events about objects left alone (nil: none).
	Recorder events.EventRecorder
	// Metrics are this controller's metrics (nil: unregistered ones).
	Metrics *Metrics
	// Clock is the Applier's clock (nil: the real clock).
	Clock clock.PassiveClock
}

// Reconciler keeps the kubelet Service, Endpoints and EndpointSlices in line with the
// selected nodes. There is one object to reconcile, whatever the request.
type Reconciler struct {
	Deps
	cfg Config

	mu sync.Mutex
	// serviceUID is the last UID seen of the Service, for the slices' owner reference
	// when a pass cannot read it (just created, read from a lagging cache).
	serviceUID types.UID
	// conflicts are the objects left alone, reported once each (kind -> UID).
	conflicts map[string]types.UID
	// problems are the node problems last logged.
	problems string
	// recheck asks for the next pass soon (see recheckAfter).
	recheck bool
}

// New returns a Reconciler. It can reconcile without a manager (unit tests call
// Reconcile directly); SetupWithManager registers its watches.
func New(d Deps, cfg Config) *Reconciler {
	if d.Clock == nil {
		d.Clock = clock.RealClock{}
	}
	if d.Metrics == nil {
		d.Metrics, _ = NewMetrics(nil)
	}
	if d.Applier == nil && d.Client != nil {
		d.Applier = apply.New(d.Client, d.WriteMetrics, d.Clock)
	}
	if cfg.Selector == nil {
		cfg.Selector = labels.Everything()
	}
	if cfg.SyncPeriod == 0 {
		cfg.SyncPeriod = DefaultSyncPeriod
	}
	if cfg.AddressPriority == "" {
		cfg.AddressPriority = kubelet.InternalFirst
	}
	r := &Reconciler{Deps: d, cfg: cfg, conflicts: map[string]types.UID{}}
	r.Metrics.managed(cfg)
	return r
}

// ServiceKey is the request every event maps to.
func (r *Reconciler) ServiceKey() types.NamespacedName {
	return types.NamespacedName{Namespace: r.cfg.Namespace, Name: r.cfg.Name}
}
