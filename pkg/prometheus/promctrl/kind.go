package promctrl

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/promserver"
)

// Kind is what differs between the two kinds one Reconciler serves: Prometheus, and
// PrometheusAgent (Prometheus in agent mode: the same monitor selection, generation and
// workload builders, without rules, alerting or Thanos). Both are read as a promserver.Server
// (upstream's PrometheusInterface), so everything after the read handles one type.
type Kind struct {
	// Name names the controller and its metrics ("prometheus", "prometheus-agent").
	Name string
	// Resource is the plural the status bindings name (prometheuses, prometheusagents).
	Resource string
	// APIVersion and Kind are those of the objects reconciled.
	APIVersion, Kind string
	// object is an empty object of the kind, for watches.
	object func() client.Object
	// get reads one object from the cache as the Server the pipeline handles, with
	// the object itself (for events).
	get func(ctx context.Context, c client.Reader, nn types.NamespacedName) (*promserver.Server, client.Object, error)
	// list lists the objects (of one namespace, when opts say so) as Servers.
	list func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*promserver.Server, error)
}

// agent reports whether k is the PrometheusAgent kind.
func (k *Kind) agent() bool { return k.Kind == monitoringv1alpha1.PrometheusAgentsKind }

// PrometheusKind reconciles Prometheus objects.
var PrometheusKind = &Kind{
	Name: "prometheus", Resource: monitoringv1.PrometheusName,
	APIVersion: monitoringv1.SchemeGroupVersion.String(), Kind: monitoringv1.PrometheusesKind,
	object: func() client.Object { return &monitoringv1.Prometheus{} },
	get:    get[monitoringv1.Prometheus],
	list:   lister(func(l *monitoringv1.PrometheusList) []monitoringv1.Prometheus { return l.Items }),
}

// AgentKind reconciles PrometheusAgent objects in StatefulSet mode.
var AgentKind = &Kind{
	Name: "prometheus-agent", Resource: monitoringv1alpha1.PrometheusAgentName,
	APIVersion: monitoringv1alpha1.SchemeGroupVersion.String(), Kind: monitoringv1alpha1.PrometheusAgentsKind,
	object: func() client.Object { return &monitoringv1alpha1.PrometheusAgent{} },
	get:    get[monitoringv1alpha1.PrometheusAgent],
	list:   lister(func(l *monitoringv1alpha1.PrometheusAgentList) []monitoringv1alpha1.PrometheusAgent { return l.Items }),
}

// get reads one Prometheus or PrometheusAgent from the cache, as a Server and as itself.
func get[T any, PT interface {
	*T
	monitoringv1.PrometheusInterface
	client.Object
}](ctx context.Context, c client.Reader, nn types.NamespacedName) (*promserver.Server, client.Object, error) {
	o := PT(new(T))
	if err := c.Get(ctx, nn, o); err != nil {
		return nil, nil, err
	}
	return promserver.Of(o), o, nil
}

// lister lists the objects of one kind (list type L, items of the list) as Servers, from
// the cache without copies.
func lister[L any, PL interface {
	*L
	client.ObjectList
}, T any, PT interface {
	*T
	monitoringv1.PrometheusInterface
}](items func(*L) []T) func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*promserver.Server, error) {
	return func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*promserver.Server, error) {
		list := PL(new(L))
		if err := c.List(ctx, list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
			return nil, err
		}
		objs := items(list)
		out := make([]*promserver.Server, len(objs))
		for i := range objs {
			out[i] = promserver.Of(PT(&objs[i]))
		}
		return out, nil
	}
}
