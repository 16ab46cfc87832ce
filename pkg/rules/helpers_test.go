package rules

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func intOrString(s string) intstr.IntOrString { return intstr.FromString(s) }

// newRule builds a PrometheusRule with a UID derived from its name.
func newRule(namespace, name string, generation int64) *monitoringv1.PrometheusRule {
	r := &monitoringv1.PrometheusRule{}
	r.Namespace, r.Name, r.Generation = namespace, name, generation
	r.UID = types.UID(fmt.Sprintf("%08x-0000-4000-8000-000000000000", len(namespace)*1000+len(name)))
	return r
}
