package promcfg

import (
	"fmt"
	"strings"

	"github.com/alecthomas/units"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// scrapeFields are the per-job settings ServiceMonitor and PodMonitor endpoints share,
// together with the monitor-level limits and protocols.
type scrapeFields struct {
	Interval, Timeout        monitoringv1.Duration
	Path                     string
	Scheme                   *monitoringv1.Scheme
	Params                   map[string][]string
	HonorLabels              bool
	HonorTimestamps          *bool
	TrackTimestampsStaleness *bool

	SampleLimit, TargetLimit, LabelLimit, LabelNameLengthLimit, LabelValueLengthLimit, KeepDroppedTargets *int64
	BodySizeLimit                                                                                         *monitoringv1.ByteSize

	ScrapeProtocols        []monitoringv1.ScrapeProtocol
	FallbackScrapeProtocol *monitoringv1.ScrapeProtocol
	NativeHistograms       monitoringv1.NativeHistogramConfig
	ExtraScrapeMetrics     *bool
}

// renderScrapeTiming appends honor_labels, honor_timestamps and
// track_timestamps_staleness, the settings Prometheus documents before the discovery.
func (rc *renderCtx) renderScrapeTiming(m *M, f *scrapeFields) {
	honorLabels := f.HonorLabels && !rc.OverrideHonorLabels
	m.SetAlways("honor_labels", honorLabels)
	switch {
	case rc.OverrideHonorTimestamps:
		m.SetAlways("honor_timestamps", false)
	case f.HonorTimestamps != nil:
		m.SetAlways("honor_timestamps", *f.HonorTimestamps)
	}
	if f.TrackTimestampsStaleness != nil {
		rc.setSupported(m, versions.PromTrackTimestampsStaleness, "track_timestamps_staleness", *f.TrackTimestampsStaleness)
	}
}

// setScrapeDuration sets key of m to v, a positive duration (field in errors, example
// in the message); nothing when v is empty.
func setScrapeDuration(m *M, key, field string, v monitoringv1.Duration, example string) (model.Duration, error) {
	if v == "" {
		return 0, nil
	}
	d, err := model.ParseDuration(string(v))
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid %s %q: must be a positive Prometheus duration such as %s", field, v, example)
	}
	m.Set(key, string(v))
	return d, nil
}

// renderScrapeSettings appends interval, timeout, protocols, path, params and scheme.
func (rc *renderCtx) renderScrapeSettings(m *M, f *scrapeFields) error {
	interval, err := setScrapeDuration(m, "scrape_interval", "interval", f.Interval, "30s")
	if err != nil {
		return err
	}
	timeout, err := setScrapeDuration(m, "scrape_timeout", "scrapeTimeout", f.Timeout, "10s")
	if err != nil {
		return err
	}
	if timeout != 0 {
		effInterval := interval
		if effInterval == 0 {
			effInterval = rc.GlobalScrapeInterval
		}
		if timeout > effInterval {
			return fmt.Errorf("scrapeTimeout %s is greater than the scrape interval %s", timeout, effInterval)
		}
	}
	if len(f.ScrapeProtocols) > 0 {
		if !rc.Version.Supports(versions.PromScrapeProtocols) {
			rc.unsupported(versions.PromScrapeProtocols)
		} else {
			ps, err := scrapeProtocols(f.ScrapeProtocols, rc.Version)
			if err != nil {
				return err
			}
			m.Set("scrape_protocols", ps)
		}
	}
	if f.FallbackScrapeProtocol != nil {
		if !rc.Version.Supports(versions.PromFallbackScrapeProtocol) {
			rc.unsupported(versions.PromFallbackScrapeProtocol)
		} else {
			ps, err := scrapeProtocols([]monitoringv1.ScrapeProtocol{*f.FallbackScrapeProtocol}, rc.Version)
			if err != nil {
				return fmt.Errorf("fallbackScrapeProtocol: %w", err)
			}
			m.Set("fallback_scrape_protocol", ps[0])
		}
	}
	if f.Path != "" {
		if !strings.HasPrefix(f.Path, "/") {
			return fmt.Errorf("path %q must start with /", f.Path)
		}
		m.Set("metrics_path", f.Path)
	}
	m.Set("params", stringMap(f.Params))
	if f.Scheme != nil && *f.Scheme != "" {
		s := strings.ToLower(string(*f.Scheme))
		if s != "http" && s != "https" {
			return fmt.Errorf("scheme %q must be HTTP or HTTPS", *f.Scheme)
		}
		m.Set("scheme", s)
	}
	return nil
}

// scrapeProtocols checks scrape protocol names against version v.
func scrapeProtocols(in []monitoringv1.ScrapeProtocol, v versions.Version) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, p := range in {
		switch p {
		case monitoringv1.PrometheusProto, monitoringv1.PrometheusText0_0_4, monitoringv1.OpenMetricsText0_0_1, monitoringv1.OpenMetricsText1_0_0:
		case monitoringv1.PrometheusText1_0_0:
			if !v.AtLeast(versions.Prometheus3) {
				return nil, fmt.Errorf("scrape protocol %s needs Prometheus v3.0.0 or newer (have %s)", p, v.Tag())
			}
		default:
			return nil, fmt.Errorf("unknown scrape protocol %q", p)
		}
		out = append(out, string(p))
	}
	return out, nil
}

// renderLimits appends the limits: the effective value is the smaller of the monitor's
// and the Prometheus's enforced one (the enforced one alone when the monitor sets none).
func (rc *renderCtx) renderLimits(m *M, f *scrapeFields) error {
	s := &rc.Enforced
	limits := []struct {
		key       string
		own       *int64
		enforced  *int64
		feature   *versions.Feature
		fieldName string
	}{
		{"sample_limit", f.SampleLimit, s.SampleLimit, nil, "sampleLimit"},
		{"target_limit", f.TargetLimit, s.TargetLimit, nil, "targetLimit"},
		{"label_limit", f.LabelLimit, s.LabelLimit, nil, "labelLimit"},
		{"label_name_length_limit", f.LabelNameLengthLimit, s.LabelNameLengthLimit, nil, "labelNameLengthLimit"},
		{"label_value_length_limit", f.LabelValueLengthLimit, s.LabelValueLengthLimit, nil, "labelValueLengthLimit"},
		{"keep_dropped_targets", f.KeepDroppedTargets, s.KeepDroppedTargets, &versions.PromKeepDroppedTargets, "keepDroppedTargets"},
	}
	for _, l := range limits {
		if l.own != nil && *l.own < 0 {
			return fmt.Errorf("%s must not be negative, got %d", l.fieldName, *l.own)
		}
		v := effectiveLimit(l.own, l.enforced)
		if v == nil {
			continue
		}
		if l.feature != nil && !rc.Version.Supports(*l.feature) {
			rc.unsupported(*l.feature)
			continue
		}
		m.Set(l.key, *v)
	}
	body, err := effectiveBodySize(f.BodySizeLimit, s.BodySizeLimit)
	if err != nil {
		return err
	}
	m.Set("body_size_limit", body)
	return nil
}

func effectiveLimit(own, enforced *int64) *int64 {
	switch {
	case enforced == nil || *enforced <= 0:
		return own
	case own == nil || *own <= 0 || *own > *enforced:
		return enforced
	}
	return own
}

func effectiveBodySize(own *monitoringv1.ByteSize, enforced monitoringv1.ByteSize) (string, error) {
	var ownB, enfB units.Base2Bytes
	var err error
	if own != nil && *own != "" {
		if ownB, err = units.ParseBase2Bytes(string(*own)); err != nil {
			return "", fmt.Errorf("invalid bodySizeLimit %q: %w", *own, err)
		}
	}
	if enforced != "" {
		if enfB, err = units.ParseBase2Bytes(string(enforced)); err != nil {
			return "", fmt.Errorf("invalid spec.enforcedBodySizeLimit %q: %w", enforced, err)
		}
	}
	switch {
	case enfB > 0 && (ownB == 0 || ownB > enfB):
		return string(enforced), nil
	case ownB > 0:
		return string(*own), nil
	}
	return "", nil
}

// renderHistograms appends the native-histogram settings the version understands.
func (rc *renderCtx) renderHistograms(m *M, f *scrapeFields) error {
	nh := f.NativeHistograms
	if nh.ScrapeNativeHistograms != nil {
		rc.setSupported(m, versions.PromScrapeNativeHistograms, "scrape_native_histograms", *nh.ScrapeNativeHistograms)
	}
	if nh.ScrapeClassicHistograms != nil {
		switch {
		case rc.Version.Supports(versions.PromAlwaysScrapeClassic):
			m.SetAlways("always_scrape_classic_histograms", *nh.ScrapeClassicHistograms)
		default:
			m.SetAlways("scrape_classic_histograms", *nh.ScrapeClassicHistograms)
		}
	}
	if nh.NativeHistogramBucketLimit != nil {
		if *nh.NativeHistogramBucketLimit < 0 {
			return fmt.Errorf("nativeHistogramBucketLimit must not be negative")
		}
		m.Set("native_histogram_bucket_limit", *nh.NativeHistogramBucketLimit)
	}
	if nh.NativeHistogramMinBucketFactor != nil {
		if rc.Version.Supports(versions.PromNativeHistogramMinFactor) {
			v := nh.NativeHistogramMinBucketFactor.AsApproximateFloat64()
			if v < 0 {
				return fmt.Errorf("nativeHistogramMinBucketFactor must not be negative")
			}
			m.Set("native_histogram_min_bucket_factor", v)
		} else {
			rc.unsupported(versions.PromNativeHistogramMinFactor)
		}
	}
	if nh.ConvertClassicHistogramsToNHCB != nil {
		rc.setSupported(m, versions.PromConvertClassicToNHCB, "convert_classic_histograms_to_nhcb", *nh.ConvertClassicHistogramsToNHCB)
	}
	if f.ExtraScrapeMetrics != nil {
		rc.setSupported(m, versions.PromExtraScrapeMetrics, "extra_scrape_metrics", *f.ExtraScrapeMetrics)
	}
	return nil
}
