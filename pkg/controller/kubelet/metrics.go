package kubelet

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Resource label values of the sync metrics, upstream's.
const (
	resourceEndpoints     = "endpoints"
	resourceEndpointSlice = "endpointslice"
)

// Metrics are the kubelet controller's metrics. The first four keep prometheus-operator's
// names and labels, so kube-prometheus's PrometheusOperatorNodeLookupErrors alert and
// dashboards built on them keep working after the swap.
type Metrics struct {
	lookupErrors *prometheus.CounterVec
	syncs        *prometheus.CounterVec
	syncFailures *prometheus.CounterVec
	managedRes   *prometheus.GaugeVec
	addresses    *prometheus.GaugeVec
	duration     prometheus.Histogram
}

// NewMetrics creates the metrics and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		lookupErrors: promreg.CounterVec("prometheus_operator_node_address_lookup_errors_total",
			"Nodes or node addresses left out of the kubelet endpoints because no usable IP address was found, counted at every sync (prometheus-operator's name)."),
		syncs: promreg.CounterVec("prometheus_operator_node_syncs_total",
			"Synchronisations of the kubelet Endpoints (resource=endpoints) or EndpointSlices (resource=endpointslice) (prometheus-operator's name).", "resource"),
		syncFailures: promreg.CounterVec("prometheus_operator_node_syncs_failed_total",
			"Failed synchronisations of the kubelet Endpoints or EndpointSlices (prometheus-operator's name).", "resource"),
		managedRes: promreg.GaugeVec("prometheus_operator_kubelet_managed_resource",
			"1 when the operator writes the kubelet Endpoints (resource=endpoints) or EndpointSlices (resource=endpointslice), 0 otherwise (prometheus-operator's name).", "resource"),
		addresses: promreg.GaugeVec("lookout_kubelet_addresses",
			"Kubelet addresses listed in the kubelet Endpoints and EndpointSlices at the last sync, by address family.", "family"),
		duration: promreg.Histogram("lookout_kubelet_sync_duration_seconds",
			"Time of one sync of the kubelet Service, Endpoints and EndpointSlices: reading the nodes and objects, building, writing what changed.",
			prometheus.ExponentialBuckets(0.001, 3, 10)),
	}
	for _, r := range []string{resourceEndpoints, resourceEndpointSlice} {
		m.syncs.WithLabelValues(r)
		m.syncFailures.WithLabelValues(r)
	}
	m.lookupErrors.WithLabelValues()
	return promreg.Registered(m, reg, "kubelet controller metrics", m.lookupErrors, m.syncs, m.syncFailures, m.managedRes, m.addresses, m.duration)
}

func (m *Metrics) managed(cfg Config) {
	m.managedRes.WithLabelValues(resourceEndpoints).Set(b2f(cfg.Endpoints))
	m.managedRes.WithLabelValues(resourceEndpointSlice).Set(b2f(cfg.EndpointSlices))
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
