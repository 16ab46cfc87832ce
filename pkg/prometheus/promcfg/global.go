package promcfg

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"

	"github.com/lookout-operator/lookout/pkg/versions"
)

const (
	defaultScrapeInterval     = 30 * time.Second
	defaultEvaluationInterval = "30s"
	defaultPromLabel          = "prometheus"
	defaultReplicaLabel       = "prometheus_replica"
	// PodNameEnvVar is expanded by the config-reloader into each pod's name.
	PodNameEnvVar = "$(POD_NAME)"
	// LogDir is where relative query and scrape-failure log files are written.
	LogDir = "/var/log/prometheus"
)

// global renders the global section.
func (h *headerCtx) global() (M, error) {
	p, v := h.p, h.v
	s := p.Spec
	g := M{}
	interval := "30s"
	if s.ScrapeInterval != "" {
		if _, err := parsePositiveDuration(string(s.ScrapeInterval)); err != nil {
			return nil, fmt.Errorf("spec.scrapeInterval: %w", err)
		}
		interval = string(s.ScrapeInterval)
	}
	g.Set("scrape_interval", interval)
	if s.ScrapeTimeout != "" {
		t, err := parsePositiveDuration(string(s.ScrapeTimeout))
		if err != nil {
			return nil, fmt.Errorf("spec.scrapeTimeout: %w", err)
		}
		i, _ := parsePositiveDuration(interval)
		if t > i {
			return nil, fmt.Errorf("spec.scrapeTimeout %s is greater than spec.scrapeInterval %s", s.ScrapeTimeout, interval)
		}
		g.Set("scrape_timeout", string(s.ScrapeTimeout))
	}
	if len(s.ScrapeProtocols) > 0 {
		if !v.Supports(versions.PromScrapeProtocols) {
			h.unsupported("spec.scrapeProtocols", versions.PromScrapeProtocols)
		} else {
			ps, err := scrapeProtocols(s.ScrapeProtocols, v)
			if err != nil {
				return nil, fmt.Errorf("spec.scrapeProtocols: %w", err)
			}
			g.Set("scrape_protocols", ps)
		}
	}
	eval := defaultEvaluationInterval
	if p.IsAgent() {
		eval = "" // an agent evaluates no rules (its spec has no evaluationInterval)
	}
	if p.PrometheusOnly().EvaluationInterval != "" {
		if _, err := parsePositiveDuration(string(p.PrometheusOnly().EvaluationInterval)); err != nil {
			return nil, fmt.Errorf("spec.evaluationInterval: %w", err)
		}
		eval = string(p.PrometheusOnly().EvaluationInterval)
	}
	g.Set("evaluation_interval", eval)
	if p.PrometheusOnly().RuleQueryOffset != nil {
		if _, err := model.ParseDuration(string(*p.PrometheusOnly().RuleQueryOffset)); err != nil {
			return nil, fmt.Errorf("spec.ruleQueryOffset: %w", err)
		}
		h.setSupported(&g, versions.PromRuleQueryOffset, "spec.ruleQueryOffset", "rule_query_offset", string(*p.PrometheusOnly().RuleQueryOffset))
	}
	if p.PrometheusOnly().QueryLogFile != "" {
		g.Set("query_log_file", logFilePath(p.PrometheusOnly().QueryLogFile))
	}
	if s.ScrapeFailureLogFile != nil && *s.ScrapeFailureLogFile != "" {
		h.setSupported(&g, versions.PromScrapeFailureLogFile, "spec.scrapeFailureLogFile", "scrape_failure_log_file", logFilePath(*s.ScrapeFailureLogFile))
	}
	ext, err := h.externalLabels()
	if err != nil {
		return nil, err
	}
	g.Set("external_labels", ext)

	limits := []struct {
		key  string
		val  *int64
		feat *versions.Feature
	}{
		{"sample_limit", s.SampleLimit, nil},
		{"target_limit", s.TargetLimit, nil},
		{"label_limit", s.LabelLimit, nil},
		{"label_name_length_limit", s.LabelNameLengthLimit, nil},
		{"label_value_length_limit", s.LabelValueLengthLimit, nil},
		{"keep_dropped_targets", s.KeepDroppedTargets, &versions.PromGlobalKeepDroppedTargets},
	}
	for _, l := range limits {
		if l.val == nil {
			continue
		}
		if *l.val < 0 {
			return nil, fmt.Errorf("spec.%s must not be negative", l.key)
		}
		if l.feat != nil && !v.Supports(*l.feat) {
			h.unsupported("spec", *l.feat)
			continue
		}
		g.Set(l.key, *l.val)
	}
	if s.BodySizeLimit != nil && *s.BodySizeLimit != "" {
		b, err := effectiveBodySize(s.BodySizeLimit, "")
		if err != nil {
			return nil, fmt.Errorf("spec.bodySizeLimit: %w", err)
		}
		g.Set("body_size_limit", b)
	}
	if s.NameValidationScheme != nil {
		val, _, err := nameValidation(*s.NameValidationScheme)
		if err != nil {
			return nil, fmt.Errorf("spec.nameValidationScheme: %w", err)
		}
		h.setSupported(&g, versions.PromMetricNameValidation, "spec.nameValidationScheme", "metric_name_validation_scheme", val)
	}
	if s.NameEscapingScheme != nil {
		esc, err := nameEscaping(*s.NameEscapingScheme)
		if err != nil {
			return nil, fmt.Errorf("spec.nameEscapingScheme: %w", err)
		}
		h.setSupported(&g, versions.PromMetricNameEscaping, "spec.nameEscapingScheme", "metric_name_escaping_scheme", esc)
	}
	if s.ScrapeNativeHistograms != nil {
		h.setSupported(&g, versions.PromScrapeNativeHistograms, "spec.scrapeNativeHistograms", "scrape_native_histograms", *s.ScrapeNativeHistograms)
	}
	if s.ScrapeClassicHistograms != nil {
		h.setSupported(&g, versions.PromAlwaysScrapeClassic, "spec.scrapeClassicHistograms (global)", "always_scrape_classic_histograms", *s.ScrapeClassicHistograms)
	}
	if s.ConvertClassicHistogramsToNHCB != nil {
		h.setSupported(&g, versions.PromConvertClassicToNHCB, "spec.convertClassicHistogramsToNHCB", "convert_classic_histograms_to_nhcb", *s.ConvertClassicHistogramsToNHCB)
	}
	if s.ExtraScrapeMetrics != nil {
		h.setSupported(&g, versions.PromExtraScrapeMetrics, "spec.extraScrapeMetrics", "extra_scrape_metrics", *s.ExtraScrapeMetrics)
	}
	return g, nil
}

// externalLabels: prometheus=<ns>/<name>, prometheus_replica=$(POD_NAME) and, under
// topology sharding, zone=$(TOPOLOGY_ZONE) (names configurable, "" disables), then the
// user's labels, sorted.
func (h *headerCtx) externalLabels() (M, error) {
	p := h.p
	s := p.Spec
	promLabel, replicaLabel := defaultPromLabel, defaultReplicaLabel
	if s.PrometheusExternalLabelName != nil {
		promLabel = *s.PrometheusExternalLabelName
	}
	if s.ReplicaExternalLabelName != nil {
		replicaLabel = *s.ReplicaExternalLabelName
	}
	all := map[string]string{}
	for k, v := range s.ExternalLabels {
		if !model.UTF8Validation.IsValidLabelName(k) {
			return nil, fmt.Errorf("spec.externalLabels: %q is not a valid label name", k)
		}
		all[k] = v
	}
	if promLabel != "" {
		all[promLabel] = p.Namespace + "/" + p.Name
	}
	if replicaLabel != "" {
		all[replicaLabel] = PodNameEnvVar
	}
	if zoneLabel := p.ZoneLabel(); zoneLabel != "" {
		all[zoneLabel] = ZoneEnvVar
	}
	if err := h.ps.checkStaticLabels("spec.externalLabels (with the prometheus and replica labels)", slices.Sorted(maps.Keys(all))); err != nil {
		return nil, err
	}
	return stringMap(all), nil
}

func logFilePath(f string) string {
	if path.IsAbs(f) {
		return f
	}
	return path.Join(LogDir, f)
}

func parsePositiveDuration(s string) (time.Duration, error) {
	d, err := model.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %w", s, err)
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %q must be positive", s)
	}
	return time.Duration(d), nil
}

// runtime renders the runtime section (GOGC).
func (h *headerCtx) runtime() M {
	p, v := h.p, h.v
	if p.Spec.Runtime == nil || p.Spec.Runtime.GoGC == nil {
		return nil
	}
	if !v.AtLeast(versions.New(2, 53, 0)) {
		h.warn(fmt.Sprintf("spec.runtime.goGC needs Prometheus v2.53.0 or newer (have %s); left out", v.Tag()))
		return nil
	}
	return M{{"gogc", int64(*p.Spec.Runtime.GoGC)}}
}

// nameValidation maps a name validation scheme option to the configuration's value and
// the scheme it stands for.
func nameValidation(o monitoringv1.NameValidationSchemeOptions) (string, model.ValidationScheme, error) {
	switch o {
	case monitoringv1.UTF8NameValidationScheme:
		return "utf8", model.UTF8Validation, nil
	case monitoringv1.LegacyNameValidationScheme:
		return "legacy", model.LegacyValidation, nil
	}
	return "", model.UTF8Validation, fmt.Errorf("%q is not UTF8 or Legacy", o)
}

// nameEscaping maps a name escaping scheme option to the configuration's value.
func nameEscaping(o monitoringv1.NameEscapingSchemeOptions) (string, error) {
	esc := map[monitoringv1.NameEscapingSchemeOptions]string{
		monitoringv1.AllowUTF8NameEscapingScheme:   "allow-utf-8",
		monitoringv1.UnderscoresNameEscapingScheme: "underscores",
		monitoringv1.DotsNameEscapingScheme:        "dots",
		monitoringv1.ValuesNameEscapingScheme:      "values",
	}[o]
	if esc == "" {
		return "", fmt.Errorf("%q is not AllowUTF8, Underscores, Dots or Values", o)
	}
	return esc, nil
}
