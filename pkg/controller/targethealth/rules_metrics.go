package targethealth

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// RuleMetrics count the polls of the rule health poller.
type RuleMetrics struct {
	// Polls counts polls of one owner (every shard) by result: ok, error.
	Polls *prometheus.CounterVec
	// Duration observes how long a successful poll of one owner took.
	Duration prometheus.Histogram
	// Bytes counts the bytes of rules API answers read.
	Bytes prometheus.Counter
}

// NewRuleMetrics creates the rule health metrics and registers them on reg (nil: not
// registered).
func NewRuleMetrics(reg prometheus.Registerer) (*RuleMetrics, error) {
	m := &RuleMetrics{
		Polls: promreg.CounterVec("lookout_rule_health_polls_total",
			"Polls of the rules API of one Prometheus or ThanosRuler (one pod per shard), by result (ok, error).", "result"),
		Duration: promreg.Histogram("lookout_rule_health_poll_duration_seconds",
			"Time a successful poll of one Prometheus's or ThanosRuler's rules took, every shard, parsing included.",
			[]float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}),
		Bytes: promreg.Counter("lookout_rule_health_read_bytes_total",
			"Bytes of rules API answers the rule health poller read."),
	}
	return promreg.Registered(m, reg, "rule health metrics", m.Polls, m.Duration, m.Bytes)
}

// poll are m's poll counters (none when m is nil).
func (m *RuleMetrics) poll() pollMetrics {
	if m == nil {
		return pollMetrics{}
	}
	return pollMetrics{polls: m.Polls, duration: m.Duration}
}
