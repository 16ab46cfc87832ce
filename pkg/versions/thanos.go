package versions

// Thanos flags (pkg/workload), one table for the program.
var (
	// The sidecar's, as prometheus-operator gates them.
	ThanosHTTPClientFlag    = since("prometheus.http-client-file", 0, 24, 0)
	ThanosGetConfig         = since("prometheus.get_config_interval", 0, 29, 0)
	ThanosTLSMinVersion     = since("grpc-server-tls-min-version", 0, 37, 0)
	ThanosTLSCiphers        = since("grpc-server-tls-cipher-suites and curves", 0, 42, 0)
	ThanosDelayedCompaction = since("delayed compaction", 0, 41, 0)

	// The Thanos Ruler's.
	ThanosRulerWebConfig     = since("http.config", 0, 21, 0)
	ThanosRulerRemoteWrite   = since("remote-write.config-file", 0, 24, 0)
	ThanosRulerOutageFlags   = since("for-outage-tolerance and for-grace-period", 0, 30, 0)
	ThanosRulerConcurrent    = since("rule-concurrent-evaluation", 0, 37, 0)
	ThanosRulerQueryOffset   = since("rule-query-offset", 0, 38, 0)
	ThanosRulerEnableFeature = since("enable-feature", 0, 39, 0)
)
