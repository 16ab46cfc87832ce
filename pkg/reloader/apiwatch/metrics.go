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
	if err := promreg.Register(reg, "API watch metrics", []prometheus.Collector{m.updates, m.errors, m.lastUpdate}...); err != nil {
		return nil, err
	}
	return m, nil
}

func (t Target) labels() []string { return []string{string(t.Kind), t.Namespace, t.Name} }
