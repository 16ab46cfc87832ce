package targethealth

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics count the polls of the target health poller.
type Metrics struct {
	// Polls counts polls of one Prometheus (every shard) by result: ok, error.
	Polls *prometheus.CounterVec
	// Duration observes how long a successful poll of one Prometheus took.
	Duration prometheus.Histogram
}

// NewMetrics creates the metrics and registers them on reg (nil: not registered).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		Polls: promreg.CounterVec("lookout_target_health_polls_total",
			"Polls of the targets API of one Prometheus or PrometheusAgent (one pod per shard), by result (ok, error).", "result"),
		Duration: promreg.Histogram("lookout_target_health_poll_duration_seconds",
			"Time a successful poll of one Prometheus's targets took, every shard, parsing included.",
			[]float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}),
	}
	return promreg.Registered(m, reg, "target health metrics", m.Polls, m.Duration)
}

// poll are m's poll counters (none when m is nil).
func (m *Metrics) poll() pollMetrics {
	if m == nil {
		return pollMetrics{}
	}
	return pollMetrics{polls: m.Polls, duration: m.Duration}
}
