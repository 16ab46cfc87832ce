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
		reloads: promreg.Counter("reloader_reloads_total",
			"Total number of reload requests."),
		reloadsFailed: promreg.Counter("reloader_reloads_failed_total",
			"Total number of reload requests that failed, including reloads Prometheus did not confirm (signal method) or answer in time."),
		lastReloadSuccessful: promreg.Gauge("reloader_last_reload_successful",
			"Whether the last reload attempt was successful (1) or not (0)."),
		lastReloadSuccessTimestamp: promreg.Gauge("reloader_last_reload_success_timestamp_seconds",
			"Timestamp of the last successful reload."),
		applies: promreg.Counter("reloader_config_apply_operations_total",
			"Total number of config apply operations: checks that found new content (or a failed reload to retry) and rendered, wrote and reloaded it."),
		appliesFailed: promreg.Counter("reloader_config_apply_operations_failed_total",
			"Total number of config apply operations that failed: unreadable or corrupt input, output write error, or failed reload."),
		watches: promreg.Gauge("reloader_watches",
			"Number of resources watched by the reloader."),
		watchEvents: promreg.Counter("reloader_watch_events_total",
			"Total number of events received by the reloader from the watcher."),
		watchErrors: promreg.Counter("reloader_watch_errors_total",
			"Total number of errors received by the reloader from the watcher."),
		expansionErrors: promreg.Gauge("reloader_config_environment_variable_expansion_errors",
			"Number of $(VAR) references left unexpanded because VAR was unset in the last rendered config."),
		info: promreg.GaugeVec("reloader_info",
			"A metric with a constant '1' value labeled by reload method (either 'http' or 'signal').", "method"),
		configInfo: promreg.GaugeVec("reloader_config_info",
			"Always 1; the hash label names the decompressed config input (of a config in several parts, part 0), before $(VAR) expansion, that Prometheus last loaded successfully: the hex SHA-256 of the SHA-256 of its chunks, cut before each line that starts with \"- \".", "hash"),
		reloadDuration: promreg.Histogram("reloader_reload_duration_seconds",
			"Duration of reload requests, including the runtimeinfo confirmation of the signal method.",
			[]float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30}),
		unsetEnvVars: promreg.Counter("reloader_unset_env_vars_total",
			"Total number of $(VAR) references left unexpanded because VAR was unset, counted per rendered config written."),
		checks: promreg.CounterVec("reloader_checks_total",
			"Total number of content checks, by cause (start, event, periodic, retry).", "cause"),
	}
	return promreg.Registered(m, reg, "reloader metrics", m.reloads, m.reloadsFailed, m.lastReloadSuccessful,
		m.lastReloadSuccessTimestamp, m.applies, m.appliesFailed, m.watches, m.watchEvents,
		m.watchErrors, m.expansionErrors, m.info, m.configInfo, m.reloadDuration, m.unsetEnvVars, m.checks)
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

// reloadSucceeded records a reload Prometheus confirmed.
func (m *Metrics) reloadSucceeded() {
	m.lastReloadSuccessful.Set(1)
	m.lastReloadSuccessTimestamp.SetToCurrentTime()
}
