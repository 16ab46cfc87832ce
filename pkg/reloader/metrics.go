package reloader

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/lookout-operator/lookout/pkg/promreg"
)

// Metrics are the reloader's Prometheus metrics. The names of the first group are those
// of prometheus-config-reloader (and the Thanos reloader it builds on), so existing
// dashboards and alerts keep working.
type Metrics struct {
	reloads                    prometheus.Counter
	reloadsFailed              prometheus.Counter
	lastReloadSuccessful       prometheus.Gauge
	lastReloadSuccessTimestamp prometheus.Gauge
	applies                    prometheus.Counter
	appliesFailed              prometheus.Counter
	watches                    prometheus.Gauge
	watchEvents                prometheus.Counter
	watchErrors                prometheus.Counter
	expansionErrors            prometheus.Gauge
	info                       *prometheus.GaugeVec

	configInfo     *prometheus.GaugeVec
	reloadDuration prometheus.Histogram
	unsetEnvVars   prometheus.Counter
	checks         *prometheus.CounterVec
}

// NewMetrics creates the metrics and registers them with reg (nil registers nowhere).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		reloads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_reloads_total",
			Help: "Total number of reload requests.",
		}),
		reloadsFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_reloads_failed_total",
			Help: "Total number of reload requests that failed, including reloads Prometheus did not confirm.",
		}),
		lastReloadSuccessful: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "reloader_last_reload_successful",
			Help: "Whether the last reload attempt was successful (1) or not (0).",
		}),
		lastReloadSuccessTimestamp: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "reloader_last_reload_success_timestamp_seconds",
			Help: "Timestamp of the last successful reload.",
		}),
		applies: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_config_apply_operations_total",
			Help: "Total number of config apply operations: checks that found new content (or a failed reload to retry) and rendered, wrote and reloaded it.",
		}),
		appliesFailed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_config_apply_operations_failed_total",
			Help: "Total number of config apply operations that failed: unreadable or corrupt input, output write error, or failed reload.",
		}),
		watches: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "reloader_watches",
			Help: "Number of resources watched by the reloader.",
		}),
		watchEvents: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_watch_events_total",
			Help: "Total number of events received by the reloader from the watcher.",
		}),
		watchErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_watch_errors_total",
			Help: "Total number of errors received by the reloader from the watcher.",
		}),
		expansionErrors: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "reloader_config_environment_variable_expansion_errors",
			Help: "Number of $(VAR) references left unexpanded because VAR was unset in the last rendered config.",
		}),
		info: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "reloader_info",
			Help: "A metric with a constant '1' value labeled by reload method (either 'http' or 'signal').",
		}, []string{"method"}),
		configInfo: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "reloader_config_info",
			Help: "Always 1; the hash label is the hex sha256 of the decompressed config input, before $(VAR) expansion, that Prometheus last loaded successfully.",
		}, []string{"hash"}),
		reloadDuration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "reloader_reload_duration_seconds",
			Help:    "Duration of reload requests, including the runtimeinfo confirmation.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}),
		unsetEnvVars: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "reloader_unset_env_vars_total",
			Help: "Total number of $(VAR) references left unexpanded because VAR was unset, counted per rendered config written.",
		}),
		checks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "reloader_checks_total",
			Help: "Total number of content checks, by cause (start, event, periodic, retry).",
		}, []string{"cause"}),
	}
	if err := promreg.Register(reg, "reloader metrics", []prometheus.Collector{m.reloads, m.reloadsFailed, m.lastReloadSuccessful,
		m.lastReloadSuccessTimestamp, m.applies, m.appliesFailed, m.watches, m.watchEvents,
		m.watchErrors, m.expansionErrors, m.info, m.configInfo, m.reloadDuration, m.unsetEnvVars, m.checks}...); err != nil {
		return nil, err
	}
	return m, nil
}

// setConfigInfo makes hash the only series of reloader_config_info.
func (m *Metrics) setConfigInfo(hash string) {
	m.configInfo.Reset()
	m.configInfo.WithLabelValues(hash).Set(1)
}

// SetReloadMethod sets reloader_info to the reload method ("http" or "signal").
func (m *Metrics) SetReloadMethod(method string) {
	m.info.Reset()
	m.info.WithLabelValues(method).Set(1)
}
