//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// renderProbe renders the job probe/<ns>/<name>: targets (static or discovered Ingresses)
// are passed to the prober (e.g. blackbox_exporter) as the target parameter.
func renderProbe(ps *promSettings, rec *recorder, pr *monitoringv1.Probe) ([]M, []string, error) {
	spec := &pr.Spec
	rc, err := newRenderCtx(ps, rec, "Probe", monitoringv1.ProbeName, pr.Namespace, pr.Name, spec.ScrapeClassName)
	if err != nil {
		return nil, nil, err
	}
	if err := spec.Targets.Validate(); err != nil {
		return nil, nil, fmt.Errorf("targets: %w", err)
	}
	if spec.Targets.StaticConfig != nil && spec.Targets.Ingress != nil {
		return nil, nil, fmt.Errorf("targets: staticConfig and ingress cannot both be set")
	}
	if spec.ProberSpec.URL == "" {
		return nil, nil, fmt.Errorf("prober.url is required")
	}
	if _, err := url.Parse("http://" + spec.ProberSpec.URL); err != nil || strings.Contains(spec.ProberSpec.URL, "/") {
		return nil, nil, fmt.Errorf("prober.url %q must be a host:port address", spec.ProberSpec.URL)
	}
	client := clientOf(&spec.HTTPConfigWithoutTLS, tlsOf(spec.TLSConfig), spec.ProberSpec.ProxyConfig)
	applyClassClient(&client, rc.class)
	path := spec.ProberSpec.Path
	if path == "" {
		path = "/probe"
	}
	params := map[string][]string{}
	if spec.Module != "" {
		params["module"] = []string{spec.Module}
	}
	for _, p := range spec.Params {
		if p.Name == "" {
			return nil, nil, fmt.Errorf("params: a parameter needs a name")
		}
		params[p.Name] = p.Values
	}
	f := scrapeFields{
		Interval: spec.Interval, Timeout: spec.ScrapeTimeout, Path: path, Scheme: spec.ProberSpec.Scheme, Params: params,
		SampleLimit: spec.SampleLimit, TargetLimit: spec.TargetLimit, LabelLimit: spec.LabelLimit,
		LabelNameLengthLimit: spec.LabelNameLengthLimit, LabelValueLengthLimit: spec.LabelValueLengthLimit,
		KeepDroppedTargets: spec.KeepDroppedTargets, ScrapeProtocols: spec.ScrapeProtocols,
		FallbackScrapeProtocol: fallbackProtocol(spec.FallbackScrapeProtocol, rc.class),
		NativeHistograms:       spec.NativeHistogramConfig, ExtraScrapeMetrics: spec.ExtraScrapeMetrics,
	}
	m := M{{"job_name", "probe/" + pr.Namespace + "/" + pr.Name}}
	rc.renderScrapeTiming(&m, &f)
	rules := []M{ruleTmpJobName}
	var userRules []monitoringv1.RelabelConfig
	if st := spec.Targets.StaticConfig; st != nil {
		if len(st.Targets) == 0 {
			return nil, nil, fmt.Errorf("targets.staticConfig.static: at least one target is required")
		}
		if err := ps.checkStaticLabels("targets.staticConfig.labels", slices.Sorted(maps.Keys(st.Labels))); err != nil {
			return nil, nil, err
		}
		lbls := map[string]string{}
		for k, v := range st.Labels {
			lbls[k] = v
		}
		lbls["namespace"] = pr.Namespace
		targets := append([]string(nil), st.Targets...)
		sort.Strings(targets)
		m.Set("static_configs", []M{{{"targets", targets}, {"labels", stringMap(lbls)}}})
		userRules = st.RelabelConfigs
		rules = append(rules,
			relabelRule{SourceLabels: []string{"__address__"}, TargetLabel: "__param_target"}.yaml(),
			relabelRule{SourceLabels: []string{"__param_target"}, TargetLabel: "instance"}.yaml(),
		)
	} else {
		ing := spec.Targets.Ingress
		selRules, err := selectorRelabelings(ing.Selector, "__meta_kubernetes_ingress")
		if err != nil {
			return nil, nil, err
		}
		sd, err := ps.kubernetesSD(rec, "ingress", ps.namespaces(pr.Namespace, ing.NamespaceSelector), false, nil)
		if err != nil {
			return nil, nil, err
		}
		m.Set("kubernetes_sd_configs", []M{sd})
		userRules = ing.RelabelConfigs
		rules = append(rules, selRules...)
		rules = append(rules,
			relabelRule{
				SourceLabels: []string{"__meta_kubernetes_ingress_scheme", "__address__", "__meta_kubernetes_ingress_path"},
				Separator:    strp(";"), Regex: "(.+);(.+);(.+)", TargetLabel: "__param_target", Replacement: strp("${1}://${2}${3}"),
			}.yaml(),
			ruleNamespace,
			relabelRule{SourceLabels: []string{"__meta_kubernetes_ingress_name"}, TargetLabel: "ingress"}.yaml(),
			relabelRule{SourceLabels: []string{"__param_target"}, TargetLabel: "instance"}.yaml(),
		)
	}
	rules = append(rules, relabelRule{TargetLabel: "__address__", Replacement: strp(spec.ProberSpec.URL)}.yaml())
	if spec.JobName != "" {
		rules = append(rules, relabelRule{TargetLabel: "job", Replacement: strp(spec.JobName)}.yaml())
	}
	if err := rc.renderScrapeSettings(&m, &f); err != nil {
		return nil, nil, err
	}
	if err := rc.client(&m, &client); err != nil {
		return nil, nil, err
	}
	if err := rc.finishJob(&m, rules, &f, jobTail{
		relabelings: userRules, relabelField: "targets relabelingConfigs", metricRelabelings: spec.MetricRelabelConfigs, hashSource: "__param_target",
	}); err != nil {
		return nil, nil, err
	}
	return []M{m}, *rc.warnings, nil
}
