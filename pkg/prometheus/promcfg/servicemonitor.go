//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
)

// targetDiscovery is what every endpoint's job of one monitor shares: the Kubernetes SD entry,
// the relabel rules that select the monitor's objects, and the meta-label prefix of the
// endpoint role ("__meta_kubernetes_endpoint", "__meta_kubernetes_endpointslice"; empty
// for pods).
type targetDiscovery struct {
	sd            M
	selectorRules []M
	metaEP        string
}

// renderServiceMonitor renders one job per endpoint, named serviceMonitor/<ns>/<name>/<i>.
func renderServiceMonitor(ps *promSettings, rec *recorder, sm *monitoringv1.ServiceMonitor) ([]M, []string, error) {
	spec := &sm.Spec
	rc, err := newRenderCtx(ps, rec, "ServiceMonitor", monitoringv1.ServiceMonitorName, sm.Namespace, sm.Name, spec.ScrapeClassName)
	if err != nil {
		return nil, nil, err
	}
	role := "endpoints"
	sdRole := ps.ServiceDiscoveryRole
	if spec.ServiceDiscoveryRole != nil {
		switch *spec.ServiceDiscoveryRole {
		case monitoringv1.EndpointsRole, monitoringv1.EndpointSliceRole:
			sdRole = *spec.ServiceDiscoveryRole
		default:
			return nil, nil, fmt.Errorf("serviceDiscoveryRole %q is not Endpoints or EndpointSlice", *spec.ServiceDiscoveryRole)
		}
	}
	d := targetDiscovery{metaEP: "__meta_kubernetes_endpoint"}
	if sdRole == monitoringv1.EndpointSliceRole {
		role, d.metaEP = "endpointslice", "__meta_kubernetes_endpointslice"
	}

	var selectors []M
	if spec.SelectorMechanism != nil && *spec.SelectorMechanism == monitoringv1.SelectorMechanismRole {
		// The selector filters the Services as well as their endpoints, as
		// prometheus-operator does: an Endpoints object labelled like the selector whose
		// Service is not gets no Service metadata (and so no service and job labels).
		if selectors, err = roleSelectors(spec.Selector, role, "service"); err != nil {
			return nil, nil, err
		}
	} else if d.selectorRules, err = selectorRelabelings(spec.Selector, "__meta_kubernetes_service"); err != nil {
		return nil, nil, err
	}
	attachNode := attachNodeMetadata(spec.AttachMetadata, rc.class)
	if d.sd, err = ps.kubernetesSD(rec, role, ps.namespaces(sm.Namespace, spec.NamespaceSelector), attachNode, selectors); err != nil {
		return nil, nil, err
	}

	if len(spec.Endpoints) == 0 {
		return nil, nil, fmt.Errorf("endpoints: at least one endpoint is required")
	}
	if err := checkJobCount("endpoints", len(spec.Endpoints)); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("targetLabels", spec.TargetLabels); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("podTargetLabels", spec.PodTargetLabels); err != nil {
		return nil, nil, err
	}
	jobs := make([]M, 0, len(spec.Endpoints))
	for i := range spec.Endpoints {
		where := fmt.Sprintf("endpoints[%d]", i)
		job, err := rc.at(where).renderServiceMonitorEndpoint(sm, i, &d)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		jobs = append(jobs, job)
	}
	return jobs, *rc.warnings, nil
}

// renderServiceMonitorEndpoint renders the job of sm's endpoint i.
func (rc *renderCtx) renderServiceMonitorEndpoint(sm *monitoringv1.ServiceMonitor, i int, d *targetDiscovery) (M, error) {
	spec := &sm.Spec
	ep := &spec.Endpoints[i]
	client := httpClient{
		Authorization:     ep.Authorization,
		BasicAuth:         ep.BasicAuth,
		OAuth2:            ep.OAuth2,
		BearerTokenSecret: ep.BearerTokenSecret,
		BearerTokenFile:   ep.BearerTokenFile,
		FollowRedirects:   ep.FollowRedirects,
		EnableHTTP2:       ep.EnableHTTP2,
		TLS:               ep.TLSConfig,
		Proxy:             ep.ProxyConfig,
	}
	if rc.DenyFileAccess {
		if fields := client.fsAccess(); len(fields) > 0 {
			return nil, fmt.Errorf("%s would read files from the Prometheus filesystem, which spec.arbitraryFSAccessThroughSMs.deny forbids", strings.Join(fields, ", "))
		}
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

	m, err := rc.startJob(jobName("serviceMonitor", sm.Namespace, sm.Name, i), &f, d.sd, &client)
	if err != nil {
		return nil, err
	}

	// Relabelings: what the operator derives first, then the scrape class's, then the
	// user's, then the guards users must not be able to undo.
	rules := []M{ruleTmpJobName}
	rules = append(rules, d.selectorRules...)
	switch {
	case ep.Port != "":
		if err := checkPortRegex("port", ep.Port); err != nil {
			return nil, err
		}
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{d.metaEP + "_port_name"}, Regex: ep.Port}.yaml())
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
	}
	tk := ruleTargetKind[d.metaEP]
	rules = append(rules, tk[0], tk[1])
	if ep.FilterRunning == nil || *ep.FilterRunning {
		rules = append(rules, ruleDropNotRunning)
	}
	rules = append(rules, ruleNamespace, ruleService, rulePod, ruleContainer)
	for _, l := range spec.TargetLabels {
		rules = append(rules, copyLabel("__meta_kubernetes_service_label_", l))
	}
	for _, l := range podTargetLabels(spec.PodTargetLabels, rc.PodTargetLabels) {
		rules = append(rules, copyLabel("__meta_kubernetes_pod_label_", l))
	}
	rules = append(rules, ruleJobFromService)
	if spec.JobLabel != "" {
		rules = append(rules, relabelRule{
			SourceLabels: []string{"__meta_kubernetes_service_label_" + sanitizeLabelName(spec.JobLabel)},
			TargetLabel:  "job", Regex: "(.+)", Replacement: strp("${1}"),
		}.yaml())
	}
	switch {
	case ep.Port != "":
		rules = append(rules, relabelRule{TargetLabel: "endpoint", Replacement: strp(ep.Port)}.yaml())
	case ep.TargetPort != nil:
		rules = append(rules, relabelRule{TargetLabel: "endpoint", Replacement: strp(ep.TargetPort.String())}.yaml())
	}
	err = rc.finishJob(&m, rules, &f, jobTail{
		relabelings: ep.RelabelConfigs, relabelField: "relabelings", metricRelabelings: ep.MetricRelabelConfigs, hashSource: "__address__",
	})
	return m, err
}

// checkCopiedLabels checks the Kubernetes label keys of field (targetLabels,
// podTargetLabels), which copyLabel turns into target label names, against the name
// validation scheme of the Prometheus.
func (rc *renderCtx) checkCopiedLabels(field string, keys []string) error {
	return checkCopiedLabels(field, keys, rc.NameScheme)
}

func checkCopiedLabels(field string, keys []string, scheme model.ValidationScheme) error {
	for i, k := range keys {
		if name := sanitizeLabelName(k); !scheme.IsValidLabelName(name) {
			if name == k {
				return fmt.Errorf("%s[%d]: %q is not a valid label name under the %s name validation scheme", field, i, k, scheme)
			}
			return fmt.Errorf("%s[%d]: %q becomes the label name %q, which is not valid under the %s name validation scheme", field, i, k, name, scheme)
		}
	}
	return nil
}

// copyLabel copies a discovered Kubernetes label onto the target when it is non-empty.
func copyLabel(metaPrefix, label string) M {
	s := sanitizeLabelName(label)
	return relabelRule{SourceLabels: []string{metaPrefix + s}, TargetLabel: s, Regex: "(.+)", Replacement: strp("${1}")}.yaml()
}

// podTargetLabels merges the monitor's and the Prometheus's pod target labels, keeping
// the first occurrence of each.
func podTargetLabels(own, global []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range append(append([]string(nil), own...), global...) {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

// appendUserRelabelings adds the scrape class's relabelings, then the monitor's.
func (rc *renderCtx) appendUserRelabelings(rules []M, own []monitoringv1.RelabelConfig, field string) ([]M, error) {
	if class := rc.class; class != nil {
		cr, err := userRelabelings(class.Relabelings, "scrape class "+class.Name+" relabelings", rc.NameScheme)
		if err != nil {
			return nil, err
		}
		rules = append(rules, cr...)
	}
	ur, err := userRelabelings(own, field, rc.NameScheme)
	if err != nil {
		return nil, err
	}
	return append(rules, ur...), nil
}

// metricRelabelings: the scrape class's, the monitor's, then the enforced namespace label.
func (rc *renderCtx) metricRelabelings(own []monitoringv1.RelabelConfig) ([]M, error) {
	var rules []M
	if class := rc.class; class != nil {
		cr, err := userRelabelings(class.MetricRelabelings, "scrape class "+class.Name+" metricRelabelings", rc.NameScheme)
		if err != nil {
			return nil, err
		}
		rules = append(rules, cr...)
	}
	ur, err := userRelabelings(own, "metricRelabelings", rc.NameScheme)
	if err != nil {
		return nil, err
	}
	rules = append(rules, ur...)
	if rc.enforced != "" {
		rules = append(rules, relabelRule{TargetLabel: rc.enforced, Replacement: strp(rc.namespace)}.yaml())
	}
	return rules, nil
}

func attachNodeMetadata(own *monitoringv1.AttachMetadata, class *monitoringv1.ScrapeClass) bool {
	if own != nil && own.Node != nil {
		return *own.Node
	}
	if class != nil && class.AttachMetadata != nil && class.AttachMetadata.Node != nil {
		return *class.AttachMetadata.Node
	}
	return false
}

func fallbackProtocol(own *monitoringv1.ScrapeProtocol, class *monitoringv1.ScrapeClass) *monitoringv1.ScrapeProtocol {
	if own != nil {
		return own
	}
	if class != nil {
		return class.FallbackScrapeProtocol
	}
	return nil
}

// applyClassClient fills what the endpoint leaves unset from the scrape class: the TLS
// CA/cert/key files and the authorization.
func applyClassClient(c *httpClient, class *monitoringv1.ScrapeClass) {
	if class == nil {
		return
	}
	if class.TLSConfig != nil {
		if c.TLS == nil {
			c.TLS = &monitoringv1.TLSConfig{}
		} else {
			t := *c.TLS
			c.TLS = &t
		}
		if c.TLS.CAFile == "" && c.TLS.CA == (monitoringv1.SecretOrConfigMap{}) {
			c.TLS.CAFile = class.TLSConfig.CAFile
		}
		if c.TLS.CertFile == "" && c.TLS.Cert == (monitoringv1.SecretOrConfigMap{}) {
			c.TLS.CertFile = class.TLSConfig.CertFile
		}
		if c.TLS.KeyFile == "" && c.TLS.KeySecret == nil {
			c.TLS.KeyFile = class.TLSConfig.KeyFile
		}
	}
	if class.Authorization != nil && c.Authorization == nil && c.BasicAuth == nil && c.OAuth2 == nil && c.BearerTokenSecret == nil && c.BearerTokenFile == "" && c.CredentialsFile == "" {
		a := class.Authorization.SafeAuthorization
		c.Authorization = &a
		c.CredentialsFile = class.Authorization.CredentialsFile
		if c.CredentialsFile != "" && a.Credentials == nil {
			c.Authorization = &monitoringv1.SafeAuthorization{Type: a.Type}
		}
	}
}
