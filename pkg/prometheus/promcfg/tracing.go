package promcfg

import (
	"fmt"
	"strings"

	"github.com/prometheus/common/model"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// tracing renders the tracing section from spec.tracingConfig: where Prometheus sends
// its own traces. TLS material from Secrets and ConfigMaps becomes tls-assets files.
func (h *headerCtx) tracing() (M, error) {
	tc := h.p.Spec.TracingConfig
	if tc == nil {
		return nil, nil
	}
	if err := tc.Validate(); err != nil {
		return nil, fmt.Errorf("spec.tracingConfig: %w", err)
	}
	if tc.Endpoint == "" {
		return nil, fmt.Errorf("spec.tracingConfig.endpoint is required")
	}
	m := M{{"endpoint", tc.Endpoint}}
	if tc.ClientType != nil {
		ct := strings.ToLower(*tc.ClientType)
		if ct != "grpc" && ct != "http" {
			return nil, fmt.Errorf("spec.tracingConfig.clientType %q: must be grpc or http", *tc.ClientType)
		}
		m.Set("client_type", ct)
	}
	if tc.SamplingFraction != nil {
		m.SetAlways("sampling_fraction", tc.SamplingFraction.AsApproximateFloat64())
	}
	setOptAlways(&m, "insecure", tc.Insecure)
	for k := range tc.Headers {
		if strings.EqualFold(k, "authorization") {
			return nil, fmt.Errorf("spec.tracingConfig.headers: Prometheus does not accept an Authorization header for tracing")
		}
	}
	if len(tc.Headers) > 0 {
		m.Set("headers", stringMap(tc.Headers))
	}
	if tc.Compression != nil {
		c := strings.ToLower(*tc.Compression)
		if c != "gzip" {
			return nil, fmt.Errorf("spec.tracingConfig.compression %q: only gzip is supported", *tc.Compression)
		}
		m.Set("compression", c)
	}
	if tc.Timeout != nil {
		if _, err := parsePositiveDuration(string(*tc.Timeout)); err != nil {
			return nil, fmt.Errorf("spec.tracingConfig.timeout: %w", err)
		}
		m.Set("timeout", string(*tc.Timeout))
	}
	if tc.TLSConfig != nil {
		t, err := renderTLS(h.rec, h.p.Namespace, tc.TLSConfig)
		if err != nil {
			return nil, fmt.Errorf("spec.tracingConfig.tlsConfig: %w", err)
		}
		m.Set("tls_config", t)
	}
	return m, nil
}

// otlp renders the otlp section from spec.otlp: how the OTLP receiver translates metric
// and resource attributes. Fields newer than the Prometheus version are left out with a
// warning; settings the version cannot honour at all are errors, as with
// prometheus-operator.
func (h *headerCtx) otlp() (M, error) {
	o := h.p.Spec.OTLP
	if o == nil {
		return nil, nil
	}
	v := h.v
	if !v.AtLeast(versions.New(2, 55, 0)) {
		return nil, fmt.Errorf("spec.otlp needs Prometheus v2.55.0 or newer (have %s)", v.Tag())
	}
	if ts := o.TranslationStrategy; ts != nil {
		switch *ts {
		case "NoUTF8EscapingWithSuffixes":
			if h.ps.NameScheme == model.LegacyValidation {
				return nil, fmt.Errorf("spec.otlp.translationStrategy %s keeps UTF-8 names, which the legacy name validation scheme of this Prometheus rejects", *ts)
			}
		case "UnderscoreEscapingWithSuffixes":
		case "NoTranslation":
			if !v.AtLeast(versions.New(3, 4, 0)) {
				return nil, fmt.Errorf("spec.otlp.translationStrategy %s needs Prometheus v3.4.0 or newer (have %s)", *ts, v.Tag())
			}
		case "UnderscoreEscapingWithoutSuffixes":
			if !v.AtLeast(versions.New(3, 6, 0)) {
				return nil, fmt.Errorf("spec.otlp.translationStrategy %s needs Prometheus v3.6.0 or newer (have %s)", *ts, v.Tag())
			}
		default:
			return nil, fmt.Errorf("spec.otlp.translationStrategy %q is not a translation strategy Prometheus knows", *ts)
		}
	}
	if v.AtLeast(versions.New(3, 5, 0)) {
		// The combinations it refuses involve fields older releases do not get.
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("spec.otlp: %w", err)
		}
	}
	m := M{}
	set := func(field, key string, since versions.Version, val any, present bool) {
		if !present {
			return
		}
		if !v.AtLeast(since) {
			h.unsupported("spec.otlp."+field, versions.Feature{Name: key, Since: since})
			return
		}
		m.SetAlways(key, val)
	}
	set("promoteResourceAttributes", "promote_resource_attributes", versions.New(2, 55, 0), o.PromoteResourceAttributes, len(o.PromoteResourceAttributes) > 0)
	if o.TranslationStrategy != nil {
		set("translationStrategy", "translation_strategy", versions.Prometheus3, string(*o.TranslationStrategy), true)
	}
	boolField := func(field, key string, since versions.Version, b *bool) {
		if b != nil {
			set(field, key, since, *b, true)
		}
	}
	boolField("keepIdentifyingResourceAttributes", "keep_identifying_resource_attributes", versions.New(3, 1, 0), o.KeepIdentifyingResourceAttributes)
	boolField("convertHistogramsToNHCB", "convert_histograms_to_nhcb", versions.New(3, 4, 0), o.ConvertHistogramsToNHCB)
	boolField("promoteAllResourceAttributes", "promote_all_resource_attributes", versions.New(3, 5, 0), o.PromoteAllResourceAttributes)
	set("ignoreResourceAttributes", "ignore_resource_attributes", versions.New(3, 5, 0), o.IgnoreResourceAttributes, len(o.IgnoreResourceAttributes) > 0)
	boolField("promoteScopeMetadata", "promote_scope_metadata", versions.New(3, 6, 0), o.PromoteScopeMetadata)
	boolField("labelNameUnderscoreSanitization", "label_name_underscore_sanitization", versions.New(3, 8, 0), o.LabelNameUnderscoreSanitization)
	boolField("labelNamePreserveMultipleUnderscores", "label_name_preserve_multiple_underscores", versions.New(3, 8, 0), o.LabelNamePreserveMultipleUnderscores)
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}
