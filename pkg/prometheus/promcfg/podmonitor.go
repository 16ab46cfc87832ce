//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"strconv"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)

// renderPodMonitor renders one job per pod metrics endpoint, named
// podMonitor/<ns>/<name>/<i>, discovering pods (role pod).
func renderPodMonitor(ps *promSettings, rec *recorder, pm *monitoringv1.PodMonitor) ([]M, []string, error) {
	spec := &pm.Spec
	rc, err := newRenderCtx(ps, rec, "PodMonitor", monitoringv1.PodMonitorName, pm.Namespace, pm.Name, spec.ScrapeClassName)
	if err != nil {
		return nil, nil, err
	}
	var d targetDiscovery
	var selectors []M
	if spec.SelectorMechanism != nil && *spec.SelectorMechanism == monitoringv1.SelectorMechanismRole {
		if selectors, err = roleSelectors(spec.Selector, "pod"); err != nil {
			return nil, nil, err
		}
	} else if d.selectorRules, err = selectorRelabelings(spec.Selector, "__meta_kubernetes_pod"); err != nil {
		return nil, nil, err
	}
	if d.sd, err = ps.kubernetesSD(rec, "pod", ps.namespaces(pm.Namespace, spec.NamespaceSelector), attachNodeMetadata(spec.AttachMetadata, rc.class), selectors); err != nil {
		return nil, nil, err
	}
	if len(spec.PodMetricsEndpoints) == 0 {
		return nil, nil, fmt.Errorf("podMetricsEndpoints: at least one endpoint is required")
	}
	if err := checkJobCount("podMetricsEndpoints", len(spec.PodMetricsEndpoints)); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("podTargetLabels", spec.PodTargetLabels); err != nil {
		return nil, nil, err
	}
	jobs := make([]M, 0, len(spec.PodMetricsEndpoints))
	for i := range spec.PodMetricsEndpoints {
		where := fmt.Sprintf("podMetricsEndpoints[%d]", i)
		job, err := rc.at(where).renderPodMetricsEndpoint(pm, i, &d)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		jobs = append(jobs, job)
	}
	return jobs, *rc.warnings, nil
}

// renderPodMetricsEndpoint renders the job of pm's endpoint i.
func (rc *renderCtx) renderPodMetricsEndpoint(pm *monitoringv1.PodMonitor, i int, d *targetDiscovery) (M, error) {
	spec := &pm.Spec
	ep := &spec.PodMetricsEndpoints[i]
	client := httpClient{
		Authorization:     ep.Authorization,
		BasicAuth:         ep.BasicAuth,
		OAuth2:            ep.OAuth2,
		BearerTokenSecret: ep.BearerTokenSecret,
		FollowRedirects:   ep.FollowRedirects,
		EnableHTTP2:       ep.EnableHTTP2,
		TLS:               tlsOf(ep.TLSConfig),
		Proxy:             ep.ProxyConfig,
	}
	applyClassClient(&client, rc.class)
	f := scrapeFields{
		Interval: ep.Interval, Timeout: ep.ScrapeTimeout, Path: ep.Path, Scheme: ep.Scheme, Params: ep.Params,
		HonorLabels: ep.HonorLabels, HonorTimestamps: ep.HonorTimestamps, TrackTimestampsStaleness: ep.TrackTimestampsStaleness,
		SampleLimit: spec.SampleLimit, TargetLimit: spec.TargetLimit, LabelLimit: spec.LabelLimit,
		LabelNameLengthLimit: spec.LabelNameLengthLimit, LabelValueLengthLimit: spec.LabelValueLengthLimit,
		KeepDroppedTargets: spec.KeepDroppedTargets, BodySizeLimit: spec.BodySizeLimit,
		ScrapeProtocols: spec.ScrapeProtocols, FallbackScrapeProtocol: fallbackProtocol(spec.FallbackScrapeProtocol, rc.class),
		NativeHistograms: spec.NativeHistogramConfig, ExtraScrapeMetrics: spec.ExtraScrapeMetrics,
	}
	m, err := rc.startJob(jobName("podMonitor", pm.Namespace, pm.Name, i), &f, d.sd, &client)
	if err != nil {
		return nil, err
	}

	rules := []M{ruleTmpJobName}
	rules = append(rules, d.selectorRules...)
	endpointLabel := ""
	switch {
	case ep.Port != nil && *ep.Port != "":
		if err := checkPortRegex("port", *ep.Port); err != nil {
			return nil, err
		}
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{"__meta_kubernetes_pod_container_port_name"}, Regex: *ep.Port}.yaml())
		endpointLabel = *ep.Port
	case ep.PortNumber != nil && *ep.PortNumber != 0:
		if *ep.PortNumber < 1 || *ep.PortNumber > 65535 {
			return nil, fmt.Errorf("portNumber %d is not a valid port", *ep.PortNumber)
		}
		n := strconv.Itoa(int(*ep.PortNumber))
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{"__meta_kubernetes_pod_container_port_number"}, Regex: n}.yaml())
		// No endpoint label: prometheus-operator sets it from port and targetPort only,
		// and a label of its own would change the identity of every series on migration.
	case ep.TargetPort != nil:
		tp := ep.TargetPort.String()
		if tp == "" || tp == "0" {
			return nil, fmt.Errorf("targetPort must be a port number or name")
		}
		if err := checkPortRegex("targetPort", tp); err != nil {
			return nil, err
		}
		src := "__meta_kubernetes_pod_container_port_name"
		if ep.TargetPort.IntVal != 0 {
			src = "__meta_kubernetes_pod_container_port_number"
		}
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{src}, Regex: tp}.yaml())
		endpointLabel = tp
	}
	if ep.FilterRunning == nil || *ep.FilterRunning {
		rules = append(rules, ruleDropNotRunning)
	}
	rules = append(rules, ruleNamespace, ruleContainer, rulePod)
	for _, l := range podTargetLabels(spec.PodTargetLabels, rc.PodTargetLabels) {
		rules = append(rules, copyLabel("__meta_kubernetes_pod_label_", l))
	}
	rules = append(rules, relabelRule{TargetLabel: "job", Replacement: strp(pm.Namespace + "/" + pm.Name)}.yaml())
	if spec.JobLabel != "" {
		rules = append(rules, relabelRule{
			SourceLabels: []string{"__meta_kubernetes_pod_label_" + sanitizeLabelName(spec.JobLabel)},
			TargetLabel:  "job", Regex: "(.+)", Replacement: strp("${1}"),
		}.yaml())
	}
	if endpointLabel != "" {
		rules = append(rules, relabelRule{TargetLabel: "endpoint", Replacement: strp(endpointLabel)}.yaml())
	}
	err = rc.finishJob(&m, rules, &f, jobTail{
		relabelings: ep.RelabelConfigs, relabelField: "relabelings", metricRelabelings: ep.MetricRelabelConfigs, hashSource: "__address__",
	})
	return m, err
}
