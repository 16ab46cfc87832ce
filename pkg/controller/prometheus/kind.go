package prometheus

import (
	"context"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/controller/instance"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Kind is what differs between the two kinds one Reconciler serves: Prometheus, and
// PrometheusAgent (Prometheus in agent mode: the same monitor selection, generation and
// workload builders, without rules, alerting or Thanos). A PrometheusAgent is read as
// its workload.AgentView, so everything after the read handles one type.
type Kind struct {
	// Name names the controller and its metrics ("prometheus", "prometheus-agent").
	Name string
	// Resource is the plural the status bindings name (prometheuses, prometheusagents).
	Resource string
	// APIVersion and Kind are those of the objects reconciled.
	APIVersion, Kind string
	// object is an empty object of the kind, for watches.
	object func() client.Object
	// get reads one object from the cache as the Prometheus the pipeline handles, with
	// the object itself (for events).
	get func(ctx context.Context, c client.Reader, nn types.NamespacedName) (*monitoringv1.Prometheus, client.Object, error)
	// list lists the objects (of one namespace, when opts say so) as Prometheus views.
	list func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*monitoringv1.Prometheus, error)
}

// agent reports whether k is the PrometheusAgent kind.
func (k *Kind) agent() bool { return k.Kind == monitoringv1alpha1.PrometheusAgentsKind }

// PrometheusKind reconciles Prometheus objects.
var PrometheusKind = &Kind{
	Name: "prometheus", Resource: monitoringv1.PrometheusName,
	APIVersion: monitoringv1.SchemeGroupVersion.String(), Kind: monitoringv1.PrometheusesKind,
	object: func() client.Object { return &monitoringv1.Prometheus{} },
	get: func(ctx context.Context, c client.Reader, nn types.NamespacedName) (*monitoringv1.Prometheus, client.Object, error) {
		p := &monitoringv1.Prometheus{}
		if err := c.Get(ctx, nn, p); err != nil {
			return nil, nil, err
		}
		return p, p, nil
	},
	list: func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*monitoringv1.Prometheus, error) {
		var list monitoringv1.PrometheusList
		if err := c.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
			return nil, err
		}
		return instance.Pointers(list.Items), nil
	},
}

// AgentKind reconciles PrometheusAgent objects in StatefulSet mode.
var AgentKind = &Kind{
	Name: "prometheus-agent", Resource: monitoringv1alpha1.PrometheusAgentName,
	APIVersion: monitoringv1alpha1.SchemeGroupVersion.String(), Kind: monitoringv1alpha1.PrometheusAgentsKind,
	object: func() client.Object { return &monitoringv1alpha1.PrometheusAgent{} },
	get: func(ctx context.Context, c client.Reader, nn types.NamespacedName) (*monitoringv1.Prometheus, client.Object, error) {
		a := &monitoringv1alpha1.PrometheusAgent{}
		if err := c.Get(ctx, nn, a); err != nil {
			return nil, nil, err
		}
		return workload.AgentView(a), a, nil
	},
	list: func(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*monitoringv1.Prometheus, error) {
		var list monitoringv1alpha1.PrometheusAgentList
		if err := c.List(ctx, &list, append(opts, client.UnsafeDisableDeepCopy)...); err != nil {
			return nil, err
		}
		out := make([]*monitoringv1.Prometheus, len(list.Items))
		for i := range list.Items {
			out[i] = workload.AgentView(&list.Items[i])
		}
		return out, nil
	},
}
