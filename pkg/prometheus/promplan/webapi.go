package promplan

import (
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// WebAPI says how the operator reaches the HTTP API of p's pods: the scheme (https with
// spec.web.tlsConfig), the name of the prometheus container's web port and its number
// by default, the route prefix every path starts with, and whether the API listens on
// the pod's loopback only (spec.listenLocal: unreachable from outside the pod).
func WebAPI(p *promserver.Server) (scheme, port string, defaultPort int, prefix string, localOnly bool) {
	scheme = "http"
	if webTLS(p) {
		scheme = "https"
	}
	return scheme, portName(p), layout.PrometheusWebPort, routePrefix(p), p.Spec.ListenLocal
}
