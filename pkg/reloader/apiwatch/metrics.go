package apiwatch

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
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
		updates: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reloader_api_updates_total",
			Help: "Total number of object versions received through the API watch that changed the mirrored directory.",
		}, labels),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reloader_api_errors_total",
			Help: "Total number of failed API list/watch calls and failed directory writes.",
		}, labels),
		lastUpdate: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "reloader_api_last_update_timestamp_seconds",
			Help: "Time the mirrored directory was last brought up to date from the API.",
		}, labels),
	}
	if reg == nil {
		return m, nil
	}
	for _, c := range []prometheus.Collector{m.updates, m.errors, m.lastUpdate} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("registering API watch metrics: %w", err)
		}
	}
	return m, nil
}

func (t Target) labels() []string { return []string{string(t.Kind), t.Namespace, t.Name} }
