package apply

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics are the write counters of one operator instance.
type Metrics struct {
	// Writes counts API writes by kind and verb.
	Writes *prometheus.CounterVec
	// Conflicts counts objects left alone because something else owns them.
	Conflicts *prometheus.CounterVec
}

// NewMetrics creates the counters and registers them on reg (nil: not registered, for
// tests that read the counters directly).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		Writes: promreg.CounterVec("lookout_api_writes_total",
			"API write requests (create, update, delete, status apply) made by the operator, by kind and verb.", "kind", "verb"),
		Conflicts: promreg.CounterVec("lookout_ownership_conflicts_total",
			"Writes refused because the live object exists and is not owned by the object the operator generates it for, by kind.", "kind"),
	}
	return promreg.Registered(m, reg, "write metrics", m.Writes, m.Conflicts)
}

// CountWrite records one write.
func (m *Metrics) CountWrite(kind, verb string) {
	if m != nil {
		m.Writes.WithLabelValues(kind, verb).Inc()
	}
}

func (m *Metrics) countConflict(kind string) {
	if m != nil {
		m.Conflicts.WithLabelValues(kind).Inc()
	}
}

// Total returns the writes counted so far, all kinds and verbs together.
func (m *Metrics) Total() float64 {
	ch := make(chan prometheus.Metric, 64)
	go func() { m.Writes.Collect(ch); close(ch) }()
	total := 0.0
	for c := range ch {
		var d dto.Metric
		if err := c.Write(&d); err == nil {
			total += d.GetCounter().GetValue()
		}
	}
	return total
}
