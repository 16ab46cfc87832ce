package trplan

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// ThanosRulerWebAPI says how the operator reaches the HTTP API (the rules API) of t's
// pods: the scheme (https with spec.web.tlsConfig on a ruler that reads a web config), the
// name of the ruler container's HTTP port and its number, the route prefix every path
// starts with, and whether the API listens on the pod's loopback only (spec.listenLocal).
// It fails when spec.version does not parse.
func ThanosRulerWebAPI(t *monitoringv1.ThanosRuler) (scheme, port string, defaultPort int, prefix string, localOnly bool, err error) {
	v, err := thanosRulerVersion(t)
	if err != nil {
		return "", "", 0, "", false, err
	}
	scheme = "http"
	if thanosRulerWebTLS(t, v) {
		scheme = "https"
	}
	return scheme, thanosRulerPortName(t), layout.ThanosRulerHTTPPort, t.Spec.RoutePrefix, t.Spec.ListenLocal, nil
}

// ThanosRulerPodSelector selects the pods of t by the labels the operator always sets on
// them.
func ThanosRulerPodSelector(t *monitoringv1.ThanosRuler) string {
	return labels.SelectorFromSet(thanosRulerFixedLabels(t.Name)).String()
}
