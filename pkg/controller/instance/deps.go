package instance

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/opmetrics"
	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/versions"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Deps are the collaborators every instance controller works with; tests give fakes.
type Deps struct {
	// Client is the manager's client: cached reads (typed, or PartialObjectMetadata for
	// Secrets, ConfigMaps and Namespaces), direct writes.
	Client client.Client
	// APIReader reads Secrets, ConfigMaps, Services and pods straight from the API server.
	APIReader client.Reader
	// StorageClasses reads the StorageClass spec.storage names, which must exist (nil: not
	// checked; the operator may not read StorageClasses).
	StorageClasses client.Reader
	// Applier is the write path of every generated object.
	Applier *apply.Applier
	// Recorder receives events about the reconciled objects (nil: none).
	Recorder events.EventRecorder
	// Statuses receives the verdicts on the objects an instance selects (monitors, rules,
	// AlertmanagerConfigs; nil: no per-object status).
	Statuses *resourcestatus.Store
	// Metrics are the kind's lookout_* metrics (nil: unregistered ones).
	Metrics *Metrics
	// Upstream are prometheus-operator's metrics of the kind's controller (nil: none).
	Upstream *opmetrics.Controller
	// Clock stamps status conditions (nil: the real clock).
	Clock clock.PassiveClock
	// Gate is held while a reconcile runs, so that status writes wait for it (nil: none).
	Gate *priority.Gate
}

// Config is what the operator tells every instance controller at start.
type Config struct {
	Workload workload.Options
	// Scope is the set of namespaces whose objects of the kind are reconciled (empty: all).
	Scope selection.Scope
	// InstanceSelector limits the objects reconciled (--prometheus-instance-selector,
	// --alertmanager-instance-selector, --thanos-ruler-instance-selector).
	InstanceSelector labels.Selector
	// ControllerID: when set, only objects whose layout.ControllerIDAnnotation has this
	// value are reconciled; when empty, only those without it (or with an empty value).
	ControllerID string
	// Labels and Annotations are added to every generated object (the operator's own
	// labels win on a clash).
	Labels, Annotations map[string]string
	// RepairPolicy is --repair-policy-for-statefulsets: write.RepairNone (or empty),
	// RepairEvict or RepairDelete.
	RepairPolicy string
	// MaxConcurrentReconciles is the number of objects of the kind reconciled in parallel.
	MaxConcurrentReconciles int
	// WatchGoverningServices watches the metadata of Services so that a deleted or edited
	// governing Service (prometheus-operated, alertmanager-operated, ...) is restored at
	// once; it needs list and watch on Services, which prometheus-operator's RBAC does not
	// grant.
	WatchGoverningServices bool
	// DefaultVersions are written into objects without a version when they are read
	// (--default-versions; zero: Lookout's defaults, versions.DefaultPrometheus and friends).
	DefaultVersions versions.Defaults
}
