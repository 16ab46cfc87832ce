package apply

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// Writes counts API writes the operator makes, by kind and verb.
var Writes = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "lookout_api_writes_total",
	Help: "API write requests (create, update, delete, status update) made by the operator, by kind and verb.",
}, []string{"kind", "verb"})

func init() {
	metrics.Registry.MustRegister(Writes)
}

func countWrite(kind, verb string) { Writes.WithLabelValues(kind, verb).Inc() }
