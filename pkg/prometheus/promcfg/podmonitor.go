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
	d := targetDiscovery{limits: scrapeFields{
		SampleLimit: spec.SampleLimit, TargetLimit: spec.TargetLimit, LabelLimit: spec.LabelLimit,
		LabelNameLengthLimit: spec.LabelNameLengthLimit, LabelValueLengthLimit: spec.LabelValueLengthLimit,
		KeepDroppedTargets: spec.KeepDroppedTargets, BodySizeLimit: spec.BodySizeLimit,
		ScrapeProtocols: spec.ScrapeProtocols, FallbackScrapeProtocol: fallbackProtocol(spec.FallbackScrapeProtocol, rc.class),
		NativeHistograms: spec.NativeHistogramConfig, ExtraScrapeMetrics: spec.ExtraScrapeMetrics,
	}}
	var selectors []M
	if spec.SelectorMechanism != nil && *spec.SelectorMechanism == monitoringv1.SelectorMechanismRole {
		if selectors, err = roleSelectors(spec.Selector, "pod"); err != nil {
			return nil, nil, err
		}
	} else if d.selectorRules, err = selectorRelabelings(spec.Selector, "__meta_kubernetes_pod"); err != nil {
		return nil, nil, err
	}
	if d.sd, err = ps.kubernetesSD(rec, "pod", ps.namespaces(pm.Namespace, spec.NamespaceSelector), ps.attachNodeForZone(attachNodeMetadata(spec.AttachMetadata, rc.class)), selectors); err != nil {
		return nil, nil, err
	}
	if err := checkEndpointCount("podMetricsEndpoints", len(spec.PodMetricsEndpoints)); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("podTargetLabels", spec.PodTargetLabels); err != nil {
		return nil, nil, err
	}
	return rc.endpointJobs("podMetricsEndpoints", len(spec.PodMetricsEndpoints), func(rc *renderCtx, i int) (M, error) {
		return rc.renderPodMetricsEndpoint(pm, i, &d)
	})
}

// renderPodMetricsEndpoint renders the job of pm's endpoint i.
func (rc *renderCtx) renderPodMetricsEndpoint(pm *monitoringv1.PodMonitor, i int, d *targetDiscovery) (M, error) {
	spec := &pm.Spec
	ep := &spec.PodMetricsEndpoints[i]
	client := clientOf(&ep.HTTPConfigWithoutTLS, tlsOf(ep.TLSConfig), ep.ProxyConfig)
	m, rules, err := rc.startJob(jobName("podMonitor", pm.Namespace, pm.Name, i), d, &client, scrapeFields{
		Interval: ep.Interval, Timeout: ep.ScrapeTimeout, Path: ep.Path, Scheme: ep.Scheme, Params: ep.Params,
		HonorLabels: ep.HonorLabels, HonorTimestamps: ep.HonorTimestamps, TrackTimestampsStaleness: ep.TrackTimestampsStaleness,
	})
	if err != nil {
		return nil, err
	}
	endpointLabel := ""
	switch {
	case ep.Port != nil && *ep.Port != "":
		keep, err := keepPort("port", "__meta_kubernetes_pod_container_port_name", *ep.Port)
		if err != nil {
			return nil, err
		}
		rules = append(rules, keep)
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
		keep, err := keepTargetPort(ep.TargetPort)
		if err != nil {
			return nil, err
		}
		rules = append(rules, keep)
		endpointLabel = ep.TargetPort.String()
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
	err = rc.finishJob(&m, rules, &d.limits, jobTail{
		relabelings: ep.RelabelConfigs, relabelField: "relabelings", metricRelabelings: ep.MetricRelabelConfigs, hashSource: "__address__",
	})
	return m, err
}
