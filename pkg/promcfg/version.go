package promcfg

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultVersion is the Prometheus version assumed when spec.version is empty.
const DefaultVersion = "v3.16.0"

// MinimumVersion is the oldest Prometheus version Lookout generates configuration for.
var MinimumVersion = Version{2, 45, 0}

// Version is a Prometheus release (major, minor, patch).
type Version [3]int

// ParseVersion reads "v3.16.0", "3.16", "2.45.0-rc.1" and the like.
func ParseVersion(s string) (Version, error) {
	if s == "" {
		s = DefaultVersion
	}
	orig := s
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Version{}, fmt.Errorf("invalid Prometheus version %q: want MAJOR.MINOR.PATCH", orig)
	}
	var v Version
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return Version{}, fmt.Errorf("invalid Prometheus version %q: want MAJOR.MINOR.PATCH", orig)
		}
		v[i] = n
	}
	return v, nil
}

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(o Version) bool {
	for i := 0; i < 3; i++ {
		if v[i] != o[i] {
			return v[i] > o[i]
		}
	}
	return true
}

func (v Version) String() string { return fmt.Sprintf("v%d.%d.%d", v[0], v[1], v[2]) }

// Feature is a configuration field that appeared in a given Prometheus release.
type Feature struct {
	Name  string
	Since Version
	// Until, when set, is the first release that no longer accepts the field.
	Until *Version
}

// Features known to differ between the supported releases. Fields every supported release
// (2.45+) understands are not listed.
var (
	featKeepDroppedTargets         = Feature{Name: "keep_dropped_targets", Since: Version{2, 47, 0}}
	featTrackTimestampsStaleness   = Feature{Name: "track_timestamps_staleness", Since: Version{2, 48, 0}}
	featScrapeProtocols            = Feature{Name: "scrape_protocols", Since: Version{2, 49, 0}}
	featEnableCompression          = Feature{Name: "enable_compression", Since: Version{2, 49, 0}}
	featNativeHistogramMinFactor   = Feature{Name: "native_histogram_min_bucket_factor", Since: Version{2, 50, 0}}
	featRuleQueryOffset            = Feature{Name: "rule_query_offset", Since: Version{2, 53, 0}}
	featScrapeFailureLogFile       = Feature{Name: "scrape_failure_log_file", Since: Version{3, 0, 0}}
	featFallbackScrapeProtocol     = Feature{Name: "fallback_scrape_protocol", Since: Version{3, 0, 0}}
	featAlwaysScrapeClassic        = Feature{Name: "always_scrape_classic_histograms", Since: Version{3, 0, 0}}
	featConvertClassicToNHCB       = Feature{Name: "convert_classic_histograms_to_nhcb", Since: Version{3, 0, 0}}
	featMetricNameValidation       = Feature{Name: "metric_name_validation_scheme", Since: Version{3, 0, 0}}
	featMetricNameEscaping         = Feature{Name: "metric_name_escaping_scheme", Since: Version{3, 4, 0}}
	featRemoteWriteProtobufMessage = Feature{Name: "protobuf_message", Since: Version{2, 54, 0}}
	featRemoteWriteRoundRobinDNS   = Feature{Name: "round_robin_dns", Since: Version{3, 1, 0}}
	featScrapeNativeHistograms     = Feature{Name: "scrape_native_histograms", Since: Version{3, 8, 0}}
	featExtraScrapeMetrics         = Feature{Name: "extra_scrape_metrics", Since: Version{3, 10, 0}}
	featGlobalKeepDroppedTargets   = Feature{Name: "global keep_dropped_targets", Since: Version{2, 47, 0}}
	featStaleSeriesCompaction      = Feature{Name: "stale_series_compaction_threshold", Since: Version{3, 10, 0}}
	featRetentionInConfig          = Feature{Name: "storage.tsdb.retention", Since: Version{3, 11, 0}}
	featChunkEncoding              = Feature{Name: "chunk_encoding", Since: Version{3, 13, 0}}
)

// Supports reports whether the version understands the feature.
func (v Version) Supports(f Feature) bool {
	if !v.AtLeast(f.Since) {
		return false
	}
	return f.Until == nil || !v.AtLeast(*f.Until)
}

// unsupportedWarning is the warning for a field left out because the version lacks it.
func unsupportedWarning(where string, f Feature, v Version) string {
	if f.Until != nil && v.AtLeast(*f.Until) {
		return fmt.Sprintf("%s: %s is not supported by Prometheus %s (removed in %s); left out", where, f.Name, v, *f.Until)
	}
	return fmt.Sprintf("%s: %s needs Prometheus %s or newer (have %s); left out", where, f.Name, f.Since, v)
}
