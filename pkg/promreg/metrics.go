package promreg

import "github.com/prometheus/client_golang/prometheus"

// Counter is a new counter called name.
func Counter(name, help string) prometheus.Counter {
	return prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
}

// CounterVec is a new counter family called name with the given labels.
func CounterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
}

// Gauge is a new gauge called name.
func Gauge(name, help string) prometheus.Gauge {
	return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
}

// GaugeVec is a new gauge family called name with the given labels.
func GaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, labels)
}

// Histogram is a new histogram called name with the given buckets.
func Histogram(name, help string, buckets []float64) prometheus.Histogram {
	return prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets})
}

// Registered registers cs on reg as Register does and returns m, the metrics they belong
// to, or nil and the error.
func Registered[T any](m *T, reg prometheus.Registerer, what string, cs ...prometheus.Collector) (*T, error) {
	if err := Register(reg, what, cs...); err != nil {
		return nil, err
	}
	return m, nil
}
