package apiwatch

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics are the API mirror's metrics.
type Metrics struct {
	updates    *prometheus.CounterVec
	errors     *prometheus.CounterVec
	lastUpdate *prometheus.GaugeVec
}

// NewMetrics creates the metrics and registers them with reg (nil registers nowhere).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	labels := []string{"kind", "namespace", "name"}
	m := &Metrics{
		updates: promreg.CounterVec("reloader_api_updates_total",
			"Total number of object versions received through the API watch that changed the mirrored directory.", labels...),
		errors: promreg.CounterVec("reloader_api_errors_total",
			"Total number of failed API list/watch calls and failed directory writes.", labels...),
		lastUpdate: promreg.GaugeVec("reloader_api_last_update_timestamp_seconds",
			"Time the mirrored directory was last brought up to date from the API.", labels...),
	}
	return promreg.Registered(m, reg, "API watch metrics", m.updates, m.errors, m.lastUpdate)
}

func (t Target) labels() []string { return []string{string(t.Kind), t.Namespace, t.Name} }
