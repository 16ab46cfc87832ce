package prometheus

import (
	"compress/gzip"
	"sync"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/assets"
	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/promcfg"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Config is what the operator tells the controller at start.
type Config struct {
	Workload workload.Options
	// Scope is the set of watched namespaces (empty: all).
	Scope selection.Scope
	// InstanceSelector limits the Prometheus objects reconciled.
	InstanceSelector labels.Selector
	// MaxConcurrentReconciles is the number of Prometheus objects reconciled in parallel.
	MaxConcurrentReconciles int
}

// Reconciler reconciles Prometheus objects.
type Reconciler struct {
	// Client is the manager's client: cached reads (typed, or PartialObjectMetadata for
	// Secrets, ConfigMaps and Namespaces), direct writes.
	Client client.Client
	// APIReader reads Secrets and ConfigMaps straight from the API server.
	APIReader client.Reader
	Scheme    *runtime.Scheme
	Recorder  record.EventRecorder
	Statuses  *resourcestatus.Store
	Config    Config

	assets *assets.APIStore
	apply  *apply.Applier
	refs   *refIndex

	mu    sync.Mutex
	state map[types.NamespacedName]*promState
}

// promState is what the controller remembers about one Prometheus between reconciles.
type promState struct {
	mu        sync.Mutex
	generator *promcfg.Generator
	// gzipped caches the compressed config of the last hash; gzw is reused.
	gzHash  string
	gz      []byte
	gzw     *gzip.Writer
	gzLevel int
	// selectors compiled for the observed generation, guarded by selMu (map functions
	// read them while a reconcile holds mu).
	selMu         sync.Mutex
	selGeneration int64
	sel           *selectors
	rules         ruleState
}

type selectors struct {
	serviceMonitors, podMonitors, probes, scrapeConfigs, rules *selection.Compiled
}

func (r *Reconciler) stateFor(nn types.NamespacedName) *promState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.state[nn]
	if s == nil {
		s = &promState{generator: promcfg.NewGenerator()}
		r.state[nn] = s
	}
	return s
}

func (r *Reconciler) forget(nn types.NamespacedName) {
	r.mu.Lock()
	delete(r.state, nn)
	r.mu.Unlock()
	r.refs.forget(nn)
	r.Statuses.Forget(owner(nn))
	forgetMetrics(nn.Namespace, nn.Name)
}

func owner(nn types.NamespacedName) resourcestatus.Owner {
	return resourcestatus.Owner{Resource: monitoringv1.PrometheusName, Namespace: nn.Namespace, Name: nn.Name}
}

// compile returns the Prometheus's compiled selectors, recompiling on a new generation.
func (s *promState) compile(p *monitoringv1.Prometheus) (*selectors, error) {
	s.selMu.Lock()
	defer s.selMu.Unlock()
	if s.sel != nil && s.selGeneration == p.Generation && p.Generation != 0 {
		return s.sel, nil
	}
	sm, err := selection.Compile(selection.Selector{Kind: monitoringv1.ServiceMonitorsKind, Labels: p.Spec.ServiceMonitorSelector, Namespaces: p.Spec.ServiceMonitorNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	pm, err := selection.Compile(selection.Selector{Kind: monitoringv1.PodMonitorsKind, Labels: p.Spec.PodMonitorSelector, Namespaces: p.Spec.PodMonitorNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	ru, err := selection.Compile(selection.Selector{Kind: monitoringv1.PrometheusRuleKind, Labels: p.Spec.RuleSelector, Namespaces: p.Spec.RuleNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	pr, err := selection.Compile(selection.Selector{Kind: monitoringv1.ProbesKind, Labels: p.Spec.ProbeSelector, Namespaces: p.Spec.ProbeNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	sc, err := selection.Compile(selection.Selector{Kind: monitoringv1alpha1.ScrapeConfigsKind, Labels: p.Spec.ScrapeConfigSelector, Namespaces: p.Spec.ScrapeConfigNamespaceSelector, OwnNamespace: p.Namespace})
	if err != nil {
		return nil, err
	}
	s.sel, s.selGeneration = &selectors{serviceMonitors: sm, podMonitors: pm, probes: pr, scrapeConfigs: sc, rules: ru}, p.Generation
	return s.sel, nil
}
