//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// targetDiscovery is what every endpoint's job of one monitor shares: the Kubernetes SD
// entry, the relabel rules that select the monitor's objects, the meta-label prefix of the
// endpoint role ("__meta_kubernetes_endpoint", "__meta_kubernetes_endpointslice"; empty
// for pods) and the monitor-wide scrape settings.
type targetDiscovery struct {
	sd            M
	selectorRules []M
	metaEP        string
	// limits are the monitor's limits, protocols and histogram settings, the scrape
	// settings each endpoint's own complete.
	limits scrapeFields
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
	d := targetDiscovery{metaEP: "__meta_kubernetes_endpoint", limits: scrapeFields{
		SampleLimit: spec.SampleLimit, TargetLimit: spec.TargetLimit, LabelLimit: spec.LabelLimit,
		LabelNameLengthLimit: spec.LabelNameLengthLimit, LabelValueLengthLimit: spec.LabelValueLengthLimit,
		KeepDroppedTargets: spec.KeepDroppedTargets, BodySizeLimit: spec.BodySizeLimit,
		ScrapeProtocols: spec.ScrapeProtocols, FallbackScrapeProtocol: fallbackProtocol(spec.FallbackScrapeProtocol, rc.class),
		NativeHistograms: spec.NativeHistogramConfig, ExtraScrapeMetrics: spec.ExtraScrapeMetrics,
	}}
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
	attachNode := ps.attachNodeForZone(attachNodeMetadata(spec.AttachMetadata, rc.class))
	if d.sd, err = ps.kubernetesSD(rec, role, ps.namespaces(sm.Namespace, spec.NamespaceSelector), attachNode, selectors); err != nil {
		return nil, nil, err
	}

	if err := checkEndpointCount("endpoints", len(spec.Endpoints)); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("targetLabels", spec.TargetLabels); err != nil {
		return nil, nil, err
	}
	if err := rc.checkCopiedLabels("podTargetLabels", spec.PodTargetLabels); err != nil {
		return nil, nil, err
	}
	return rc.endpointJobs("endpoints", len(spec.Endpoints), func(rc *renderCtx, i int) (M, error) {
		return rc.renderServiceMonitorEndpoint(sm, i, &d)
	})
}

// checkEndpointCount refuses a monitor without endpoints (field names them) or with more
// than checkJobCount allows.
func checkEndpointCount(field string, n int) error {
	if n == 0 {
		return fmt.Errorf("%s: at least one endpoint is required", field)
	}
	return checkJobCount(field, n)
}

// endpointJobs renders the jobs of a monitor's n endpoints, listed under field, with
// render; an error names the endpoint, and the warnings are the monitor's.
func (rc *renderCtx) endpointJobs(field string, n int, render func(rc *renderCtx, i int) (M, error)) ([]M, []string, error) {
	jobs := make([]M, 0, n)
	for i := 0; i < n; i++ {
		where := fmt.Sprintf("%s[%d]", field, i)
		job, err := render(rc.at(where), i)
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
	client := clientOf(&ep.HTTPConfigWithoutTLS, ep.TLSConfig, ep.ProxyConfig)
	client.BearerTokenFile = ep.BearerTokenFile
	if rc.DenyFileAccess {
		if fields := client.fsAccess(); len(fields) > 0 {
			return nil, fmt.Errorf("%s would read files from the Prometheus filesystem, which spec.arbitraryFSAccessThroughSMs.deny forbids", strings.Join(fields, ", "))
		}
	}

	// Relabelings: what the operator derives first, then the scrape class's, then the
	// user's, then the guards users must not be able to undo.
	m, rules, err := rc.startJob(jobName("serviceMonitor", sm.Namespace, sm.Name, i), d, &client, scrapeFields{
		Interval: ep.Interval, Timeout: ep.ScrapeTimeout, Path: ep.Path, Scheme: ep.Scheme, Params: ep.Params,
		HonorLabels: ep.HonorLabels, HonorTimestamps: ep.HonorTimestamps, TrackTimestampsStaleness: ep.TrackTimestampsStaleness,
	})
	if err != nil {
		return nil, err
	}
	switch {
	case ep.Port != "":
		keep, err := keepPort("port", d.metaEP+"_port_name", ep.Port)
		if err != nil {
			return nil, err
		}
		rules = append(rules, keep)
	case ep.TargetPort != nil:
		keep, err := keepTargetPort(ep.TargetPort)
		if err != nil {
			return nil, err
		}
		rules = append(rules, keep)
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
	err = rc.finishJob(&m, rules, &d.limits, jobTail{
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

// keepPort is the rule that keeps the targets whose sourceLabel is port, the value of
// field.
func keepPort(field, sourceLabel, port string) (M, error) {
	if err := checkPortRegex(field, port); err != nil {
		return nil, err
	}
	return relabelRule{Action: "keep", SourceLabels: []string{sourceLabel}, Regex: port}.yaml(), nil
}

// keepTargetPort is the rule that keeps the targets whose container port is tp, a port
// number or name.
func keepTargetPort(tp *intstr.IntOrString) (M, error) {
	s := tp.String()
	if s == "" || s == "0" {
		return nil, fmt.Errorf("targetPort must be a port number or name")
	}
	src := "__meta_kubernetes_pod_container_port_name"
	if tp.IntVal != 0 {
		src = "__meta_kubernetes_pod_container_port_number"
	}
	return keepPort("targetPort", src, s)
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
