package versions

// MinimumAlertmanager is the oldest Alertmanager Lookout generates flags for; the newest
// is any v0.x.
var MinimumAlertmanager = New(0, 15, 0)

// Alertmanager flags and pod settings (pkg/workload).
var (
	AMLogFormat       = since("log.format", 0, 16, 0)
	AMWebFlags        = since("web.get-concurrency and web.timeout", 0, 17, 0)
	AMWebConfig       = since("web.config.file", 0, 22, 0)
	AMClusterTLS      = since("cluster.tls-config", 0, 24, 0)
	AMClusterLabel    = since("cluster.label", 0, 26, 0)
	AMEnableFeatures  = since("enable-feature", 0, 27, 0)
	AMLimits          = since("alerts and silences limits", 0, 28, 0)
	AMClusterPeerName = since("cluster.peer-name", 0, 30, 0)
	AMStartDelay      = since("dispatch.start-delay", 0, 30, 0)
)

// Alertmanager configuration (pkg/alertmanager/amcfg).
var (
	// AMMatchersV2 is the matchers parser of 0.22 (matchers, source_matchers).
	AMMatchersV2 = New(0, 22, 0)
	// AMTimeIntervals is time_intervals, which replaced mute_time_intervals.
	AMTimeIntervals = New(0, 24, 0)
)
