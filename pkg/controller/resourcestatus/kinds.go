package resourcestatus

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
)

// Object is a monitor or rule with a ConfigResourceStatus.
type Object interface {
	client.Object
	Bindings() []monitoringv1.WorkloadBinding
}

// Kind describes one kind whose status this package writes.
type Kind struct {
	// Name is the kind ("ServiceMonitor").
	Name string
	// APIVersion is the group/version the status is applied with.
	APIVersion string
	// New returns an empty object of the kind.
	New func() Object
}

// Kinds are the kinds Lookout reports status on: the monitor kinds, PrometheusRule and
// AlertmanagerConfig.
var Kinds = kinds()

func kinds() []Kind {
	var out []Kind
	for _, k := range monitorkind.All {
		out = append(out, Kind{Name: k.Name, APIVersion: k.APIVersion, New: func() Object { return k.New().(Object) }})
	}
	return append(out,
		Kind{Name: monitoringv1.PrometheusRuleKind, APIVersion: monitoringv1.SchemeGroupVersion.String(),
			New: func() Object { return &monitoringv1.PrometheusRule{} }},
		Kind{Name: monitoringv1alpha1.AlertmanagerConfigKind, APIVersion: monitoringv1alpha1.SchemeGroupVersion.String(),
			New: func() Object { return &monitoringv1alpha1.AlertmanagerConfig{} }})
}

// ownerKind names the kind of a binding's owner for messages ("prometheuses" is
// "Prometheus").
func ownerKind(resource string) string {
	switch resource {
	case monitoringv1.PrometheusName:
		return monitoringv1.PrometheusesKind
	case monitoringv1.AlertmanagerName:
		return monitoringv1.AlertmanagersKind
	case monitoringv1.ThanosRulerName:
		return monitoringv1.ThanosRulerKind
	}
	return resource
}

func lowerKind(k string) string {
	out := make([]byte, 0, len(k))
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out = append(out, c)
	}
	return string(out)
}
