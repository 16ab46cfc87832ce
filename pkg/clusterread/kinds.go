package clusterread

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
)

// Kinds are read from every namespace: Namespaces, the instances and what they select.
var Kinds = func() []schema.GroupVersionKind {
	v1 := schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1"}
	v1alpha1 := schema.GroupVersion{Group: "monitoring.coreos.com", Version: "v1alpha1"}
	kinds := []schema.GroupVersionKind{
		{Version: "v1", Kind: "Namespace"},
		v1.WithKind("Prometheus"), v1alpha1.WithKind("PrometheusAgent"), v1.WithKind("Alertmanager"),
		v1.WithKind("ThanosRuler"), v1.WithKind("PrometheusRule"), v1alpha1.WithKind("AlertmanagerConfig"),
	}
	for _, k := range monitorkind.All {
		kinds = append(kinds, schema.FromAPIVersionAndKind(k.APIVersion, k.Name))
	}
	return kinds
}()

// WorkloadKinds are what monitors select and discovery reads, from every namespace.
var WorkloadKinds = []schema.GroupVersionKind{
	{Version: "v1", Kind: "Service"},
	{Version: "v1", Kind: "Endpoints"},
	{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice"},
	{Version: "v1", Kind: "Pod"},
}
