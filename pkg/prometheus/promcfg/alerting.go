//lint:file-ignore SA1019 deprecated prometheus-operator API fields are still honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"regexp"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"

	"github.com/lookout-operator/lookout/pkg/versions"
)

// alerting renders the alerting section from spec.alerting and the replica label, followed
// by the parsed additionalAlertRelabelConfigs and additionalAlertManagerConfigs.
func (h *headerCtx) alerting(extraRelabel []any, extraAMs []any) (M, error) {
	s := h.p.Spec
	replica := defaultReplicaLabel
	if s.ReplicaExternalLabelName != nil {
		replica = *s.ReplicaExternalLabelName
	}
	var relabels []any
	if replica != "" {
		relabels = append(relabels, relabelRule{Action: "labeldrop", Regex: regexp.QuoteMeta(replica)}.yaml())
	}
	relabels = append(relabels, extraRelabel...)

	var ams []any
	sdRole := "endpoints"
	portMeta := "__meta_kubernetes_endpoint_port_name"
	if s.ServiceDiscoveryRole != nil && *s.ServiceDiscoveryRole == monitoringv1.EndpointSliceRole {
		sdRole, portMeta = "endpointslice", "__meta_kubernetes_endpointslice_port_name"
	}
	if h.p.PrometheusOnly().Alerting != nil {
		for i := range h.p.PrometheusOnly().Alerting.Alertmanagers {
			am, err := h.alertmanager(&h.p.PrometheusOnly().Alerting.Alertmanagers[i], sdRole, portMeta)
			if err != nil {
				return nil, fmt.Errorf("spec.alerting.alertmanagers[%d]: %w", i, err)
			}
			ams = append(ams, am)
		}
	}
	ams = append(ams, extraAMs...)
	m := M{}
	m.Set("alert_relabel_configs", relabels)
	m.Set("alertmanagers", ams)
	return m, nil
}

// alertmanager renders one alertmanagers entry, discovering the endpoints of the
// Service am names with role sdRole, whose port-name meta label is portMeta.
func (h *headerCtx) alertmanager(am *monitoringv1.AlertmanagerEndpoints, sdRole, portMeta string) (M, error) {
	p := h.p
	if am.Name == "" {
		return nil, fmt.Errorf("name is required")
	}
	ns := p.Namespace
	if am.Namespace != nil && *am.Namespace != "" {
		ns = *am.Namespace
	}
	m := M{}
	prefix := "/"
	if am.PathPrefix != nil && *am.PathPrefix != "" {
		prefix = *am.PathPrefix
	}
	m.Set("path_prefix", prefix)
	scheme := "http"
	if am.Scheme != nil && *am.Scheme != "" {
		scheme = strings.ToLower(string(*am.Scheme))
	}
	m.Set("scheme", scheme)
	if am.Timeout != nil {
		if _, err := parsePositiveDuration(string(*am.Timeout)); err != nil {
			return nil, fmt.Errorf("timeout: %w", err)
		}
		m.Set("timeout", string(*am.Timeout))
	}
	apiVersion := "v2"
	if am.APIVersion != nil {
		switch {
		case strings.EqualFold(string(*am.APIVersion), "v1") && !h.v.AtLeast(versions.Prometheus3):
			// Prometheus 2.x still speaks v1 (to Alertmanagers before 0.27).
			apiVersion = "v1"
		case strings.EqualFold(string(*am.APIVersion), "v1"):
			// Prometheus 3 removed API v1; prometheus-operator leaves the field out, which
			// means v2.
			h.warn(fmt.Sprintf("spec.alerting.alertmanagers %s: apiVersion V1 is not supported by Prometheus %s; using v2", am.Name, h.v.Tag()))
		case strings.EqualFold(string(*am.APIVersion), "v2"):
		default:
			return nil, fmt.Errorf("apiVersion %q: must be V1 or V2", *am.APIVersion)
		}
	}
	m.Set("api_version", apiVersion)
	setOpt(&m, "enable_http2", am.EnableHttp2)
	sd, err := h.ps.kubernetesSD(h.rec, sdRole, []string{ns}, false, nil)
	if err != nil {
		return nil, err
	}
	m.Set("kubernetes_sd_configs", []M{sd})
	client := httpClient{
		Authorization:   am.Authorization,
		BasicAuth:       am.BasicAuth,
		BearerTokenFile: am.BearerTokenFile,
		TLS:             am.TLSConfig,
		Proxy:           am.ProxyConfig,
	}
	if err := client.render(&m, h.rec, p.Namespace, h.v); err != nil {
		return nil, err
	}
	if err := h.setSigv4(&m, am.Sigv4); err != nil {
		return nil, err
	}
	rules := []M{relabelRule{Action: "keep", SourceLabels: []string{"__meta_kubernetes_service_name"}, Regex: regexp.QuoteMeta(am.Name)}.yaml()}
	switch {
	case am.Port.StrVal != "":
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{portMeta}, Regex: regexp.QuoteMeta(am.Port.StrVal)}.yaml())
	case am.Port.IntVal != 0:
		rules = append(rules, relabelRule{Action: "keep", SourceLabels: []string{"__meta_kubernetes_pod_container_port_number"}, Regex: fmt.Sprint(am.Port.IntVal)}.yaml())
	default:
		return nil, fmt.Errorf("port is required")
	}
	ur, err := userRelabelings(am.RelabelConfigs, "relabelings", model.UTF8Validation)
	if err != nil {
		return nil, err
	}
	m.Set("relabel_configs", append(rules, ur...))
	ar, err := userRelabelings(am.AlertRelabelConfigs, "alertRelabelings", model.UTF8Validation)
	if err != nil {
		return nil, err
	}
	m.Set("alert_relabel_configs", ar)
	return m, nil
}
