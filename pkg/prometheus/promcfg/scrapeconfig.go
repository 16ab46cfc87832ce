package promcfg

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// renderScrapeConfig renders the job scrapeConfig/<ns>/<name>.
func renderScrapeConfig(ps *promSettings, rec *recorder, scfg *monitoringv1alpha1.ScrapeConfig) ([]M, []string, error) {
	spec := &scfg.Spec
	if unsupported := unsupportedSD(spec); len(unsupported) > 0 {
		return nil, nil, fmt.Errorf("%s not supported by Lookout yet", strings.Join(unsupported, ", "))
	}
	rc, err := newRenderCtx(ps, rec, "ScrapeConfig", "scrapeconfigs", scfg.Namespace, scfg.Name, spec.ScrapeClassName)
	if err != nil {
		return nil, nil, err
	}
	var nameValidationValue, nameEscapingValue string
	if spec.NameValidationScheme != nil {
		val, scheme, err := nameValidation(*spec.NameValidationScheme)
		if err != nil {
			return nil, nil, fmt.Errorf("nameValidationScheme: %w", err)
		}
		if ps.Version.Supports(versions.PromMetricNameValidation) {
			// The job's relabelings are judged with its own scheme, as Prometheus does.
			own := *ps
			own.NameScheme = scheme
			rc.promSettings = &own
			nameValidationValue = val
		} else {
			rc.unsupported(versions.PromMetricNameValidation)
		}
	}
	if spec.NameEscapingScheme != nil {
		esc, err := nameEscaping(*spec.NameEscapingScheme)
		if err != nil {
			return nil, nil, fmt.Errorf("nameEscapingScheme: %w", err)
		}
		if ps.Version.Supports(versions.PromMetricNameEscaping) {
			nameEscapingValue = esc
		} else {
			rc.unsupported(versions.PromMetricNameEscaping)
		}
	}
	if ps.DenyFileAccess && len(spec.FileSDConfigs) > 0 {
		return nil, nil, fmt.Errorf("fileSDConfigs would read files from the Prometheus filesystem, which spec.arbitraryFSAccessThroughSMs.deny forbids")
	}
	client := httpClient{Authorization: spec.Authorization, BasicAuth: spec.BasicAuth, OAuth2: spec.OAuth2, EnableHTTP2: spec.EnableHTTP2, TLS: tlsOf(spec.TLSConfig), Proxy: spec.ProxyConfig}
	applyClassClient(&client, rc.class)
	f := scrapeFields{
		Params: spec.Params, Scheme: spec.Scheme, HonorTimestamps: spec.HonorTimestamps, TrackTimestampsStaleness: spec.TrackTimestampsStaleness,
		SampleLimit: spec.SampleLimit, TargetLimit: spec.TargetLimit, LabelLimit: spec.LabelLimit, LabelNameLengthLimit: spec.LabelNameLengthLimit,
		LabelValueLengthLimit: spec.LabelValueLengthLimit, KeepDroppedTargets: spec.KeepDroppedTargets, BodySizeLimit: spec.BodySizeLimit,
		ScrapeProtocols: spec.ScrapeProtocols, FallbackScrapeProtocol: fallbackProtocol(spec.FallbackScrapeProtocol, rc.class),
		NativeHistograms: spec.NativeHistogramConfig, ExtraScrapeMetrics: spec.ExtraScrapeMetrics,
	}
	if spec.HonorLabels != nil {
		f.HonorLabels = *spec.HonorLabels
	}
	if spec.ScrapeInterval != nil {
		f.Interval = *spec.ScrapeInterval
	}
	if spec.ScrapeTimeout != nil {
		f.Timeout = *spec.ScrapeTimeout
	}
	if spec.MetricsPath != nil {
		f.Path = *spec.MetricsPath
	}
	m := M{{"job_name", "scrapeConfig/" + scfg.Namespace + "/" + scfg.Name}}
	rc.renderScrapeTiming(&m, &f)
	if err := rc.renderScrapeConfigSD(&m, spec); err != nil {
		return nil, nil, err
	}
	if err := rc.renderScrapeSettings(&m, &f); err != nil {
		return nil, nil, err
	}
	if spec.EnableCompression != nil {
		if rc.Version.Supports(versions.PromEnableCompression) {
			m.SetAlways("enable_compression", *spec.EnableCompression)
		} else {
			rc.unsupported(versions.PromEnableCompression)
		}
	}
	if err := rc.client(&m, &client); err != nil {
		return nil, nil, err
	}
	rules := []M{ruleTmpJobName}
	if spec.JobName != nil && *spec.JobName != "" {
		rules = append(rules, relabelRule{TargetLabel: "job", Replacement: strp(*spec.JobName)}.yaml())
	}
	if err := rc.finishJob(&m, rules, &f, jobTail{
		relabelings: spec.RelabelConfigs, relabelField: "relabelings", metricRelabelings: spec.MetricRelabelConfigs, hashSource: "__address__",
		ownHashmod: true,
	}); err != nil {
		return nil, nil, err
	}
	m.Set("metric_name_validation_scheme", nameValidationValue)
	m.Set("metric_name_escaping_scheme", nameEscapingValue)
	return []M{m}, *rc.warnings, nil
}

// kubernetesSDNamespaces returns the namespaces a Kubernetes SD entry of a ScrapeConfig
// discovers: with spec.ignoreNamespaceSelectors, the ScrapeConfig's own namespace only
// (and no cluster-wide role), like a monitor's; otherwise the namespaces it names, and
// every namespace (no namespaces key) when it names none, as prometheus-operator renders
// it. See ADR 10.
func (rc *renderCtx) kubernetesSDNamespaces(k *monitoringv1alpha1.KubernetesSDConfig) (M, error) {
	switch {
	case rc.IgnoreNamespaceSelectors:
		if k.Role == monitoringv1alpha1.KubernetesRoleNode {
			return nil, fmt.Errorf("role Node discovers cluster-wide objects, and spec.ignoreNamespaceSelectors confines ScrapeConfigs to their own namespace")
		}
		return M{{"names", []string{rc.namespace}}}, nil
	case k.Namespaces == nil:
		return nil, nil
	}
	nm := M{}
	if k.Namespaces.IncludeOwnNamespace != nil {
		nm.Set("own_namespace", *k.Namespaces.IncludeOwnNamespace)
	}
	names := append([]string(nil), k.Namespaces.Names...)
	sort.Strings(names)
	nm.Set("names", dedupe(names))
	return nm, nil
}

// unsupportedSD lists the set service-discovery fields Lookout does not render.
func unsupportedSD(spec *monitoringv1alpha1.ScrapeConfigSpec) []string {
	var out []string
	v := reflect.ValueOf(spec).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Name
		if !strings.HasSuffix(name, "Configs") || name == "RelabelConfigs" || name == "MetricRelabelConfigs" || supportedScrapeConfigSD[name] {
			continue
		}
		if v.Field(i).Kind() == reflect.Slice && v.Field(i).Len() > 0 {
			tag := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			out = append(out, tag)
		}
	}
	return out
}

// renderScrapeConfigSD renders the service discoveries of a ScrapeConfig.
func (rc *renderCtx) renderScrapeConfigSD(m *M, spec *monitoringv1alpha1.ScrapeConfigSpec) error {
	var statics []M
	for i, st := range spec.StaticConfigs {
		targets := make([]string, len(st.Targets))
		for j, t := range st.Targets {
			targets[j] = string(t)
		}
		if err := rc.checkStaticLabels(fmt.Sprintf("staticConfigs[%d].labels", i), slices.Sorted(maps.Keys(st.Labels))); err != nil {
			return err
		}
		sm := M{{"targets", targets}}
		if len(st.Labels) > 0 {
			sm.Set("labels", stringMap(st.Labels))
		}
		if len(targets) == 0 {
			return fmt.Errorf("staticConfigs[%d]: at least one target is required", i)
		}
		statics = append(statics, sm)
	}
	m.Set("static_configs", statics)
	var files []M
	for _, fsd := range spec.FileSDConfigs {
		names := make([]string, len(fsd.Files))
		for j, f := range fsd.Files {
			names[j] = string(f)
		}
		fm := M{{"files", names}}
		if fsd.RefreshInterval != nil {
			fm.Set("refresh_interval", string(*fsd.RefreshInterval))
		}
		files = append(files, fm)
	}
	m.Set("file_sd_configs", files)
	return rc.renderDiscoveries(m, spec)
}
