package write

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// Managed reports whether this operator instance is responsible for o (a Prometheus,
// PrometheusAgent, Alertmanager or ThanosRuler): in a watched namespace, carrying this
// instance's controller ID (none when it has none), and matching the instance selector.
func Managed(o metav1.Object, scope selection.Scope, controllerID string, instances labels.Selector) bool {
	return scope.Contains(o.GetNamespace()) && o.GetAnnotations()[layout.ControllerIDAnnotation] == controllerID &&
		instances.Matches(labels.Set(o.GetLabels()))
}
