package versions

// MinimumPrometheus is the oldest Prometheus Lookout generates configuration and flags for.
var MinimumPrometheus = New(2, 45, 0)

// Prometheus3 is the first Prometheus 3 release: UTF-8 metric and label names by default,
// the PrometheusText1.0.0 scrape protocol, --agent as a flag, the OTLP receiver flag, no
// Alertmanager API v1 and no console templates.
var Prometheus3 = New(3, 0, 0)

// Fields of the Prometheus configuration file that differ between the supported releases
// (promcfg). Fields every supported release (2.45+) understands are not listed.
var (
	PromKeepDroppedTargets         = since("keep_dropped_targets", 2, 47, 0)
	PromTrackTimestampsStaleness   = since("track_timestamps_staleness", 2, 48, 0)
	PromScrapeProtocols            = since("scrape_protocols", 2, 49, 0)
	PromEnableCompression          = since("enable_compression", 2, 49, 0)
	PromNativeHistogramMinFactor   = since("native_histogram_min_bucket_factor", 2, 50, 0)
	PromRuleQueryOffset            = since("rule_query_offset", 2, 53, 0)
	PromRuntimeGoGC                = since("runtime gogc", 2, 53, 0)
	PromScrapeFailureLogFile       = since("scrape_failure_log_file", 3, 0, 0)
	PromFallbackScrapeProtocol     = since("fallback_scrape_protocol", 3, 0, 0)
	PromAlwaysScrapeClassic        = since("always_scrape_classic_histograms", 3, 0, 0)
	PromConvertClassicToNHCB       = since("convert_classic_histograms_to_nhcb", 3, 0, 0)
	PromMetricNameValidation       = since("metric_name_validation_scheme", 3, 0, 0)
	PromMetricNameEscaping         = since("metric_name_escaping_scheme", 3, 4, 0)
	PromRemoteWriteProtobufMessage = since("protobuf_message", 2, 54, 0)
	PromRemoteWriteRoundRobinDNS   = since("round_robin_dns", 3, 1, 0)
	PromScrapeNativeHistograms     = since("scrape_native_histograms", 3, 8, 0)
	PromExtraScrapeMetrics         = since("extra_scrape_metrics", 3, 10, 0)
	PromGlobalKeepDroppedTargets   = since("global keep_dropped_targets", 2, 47, 0)
	PromStaleSeriesCompaction      = since("stale_series_compaction_threshold", 3, 10, 0)
	// PromRetentionInConfig: Prometheus reads its retention from the configuration file
	// (storage.tsdb.retention) rather than from flags.
	PromRetentionInConfig = since("storage.tsdb.retention", 3, 11, 0)
	PromChunkEncoding     = since("chunk_encoding", 3, 13, 0)
)

// Prometheus flags and feature flags (pkg/workload).
var (
	// PromUTF8NamesFeature is the utf8-names feature flag, before UTF-8 names became the
	// default in Prometheus3.
	PromUTF8NamesFeature = since("utf8-names feature flag", 2, 55, 0)
	// PromOTLPReceiverFeature is the otlp-write-receiver feature flag, before
	// Prometheus3's --web.enable-otlp-receiver.
	PromOTLPReceiverFeature = since("otlp-write-receiver feature flag", 2, 47, 0)
	// PromRemoteWriteReceiverMessages is --web.remote-write-receiver.accepted-protobuf-messages.
	PromRemoteWriteReceiverMessages = since("remote-write receiver message versions", 2, 54, 0)
	// PromMetadataWALRecords is the metadata-wal-records feature flag remote-write 2.0
	// needs, until it became the default.
	PromMetadataWALRecords = between("metadata-wal-records feature flag", New(2, 54, 0), New(3, 4, 0))
	// PromConsoleTemplates is --web.console.templates: Prometheus 3 images no longer ship
	// the console templates.
	PromConsoleTemplates = Feature{Name: "web.console.templates", Until: &Prometheus3}
	// PromAgentFlag is --agent; older releases run an agent with the agent feature flag.
	PromAgentFlag = Feature{Name: "agent", Since: Prometheus3}
	// PromOTLPReceiverFlag is --web.enable-otlp-receiver.
	PromOTLPReceiverFlag = Feature{Name: "web.enable-otlp-receiver", Since: Prometheus3}
	// PromDelayedCompaction is the delayed-compaction the Thanos sidecar relies on
	// (with ThanosDelayedCompaction).
	PromDelayedCompaction = since("delayed compaction", 3, 9, 0)
	// PromNoOverlappingCompaction is --storage.tsdb.no-overlapping-compaction.
	PromNoOverlappingCompaction = since("storage.tsdb.no-overlapping-compaction", 2, 55, 0)
)
