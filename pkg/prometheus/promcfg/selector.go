//lint:file-ignore SA1019 spec.apiserverConfig's deprecated bearer token fields are honoured as prometheus-operator honours them

package promcfg

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// selectorRelabelings turns a label selector into keep/drop relabel rules on the discovered
// object's labels. metaPrefix is e.g. "__meta_kubernetes_service" or
// "__meta_kubernetes_pod"; the discovery exposes <prefix>_label_<name> and
// <prefix>_labelpresent_<name>.
func selectorRelabelings(sel metav1.LabelSelector, metaPrefix string) ([]M, error) {
	if _, err := metav1.LabelSelectorAsSelector(&sel); err != nil {
		return nil, fmt.Errorf("invalid selector: %w", err)
	}
	var out []M
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		s := sanitizeLabelName(k)
		out = append(out, relabelRule{
			Action:       "keep",
			SourceLabels: []string{metaPrefix + "_label_" + s, metaPrefix + "_labelpresent_" + s},
			Regex:        "(" + regexp.QuoteMeta(sel.MatchLabels[k]) + ");true",
		}.yaml())
	}
	for _, e := range sel.MatchExpressions {
		s := sanitizeLabelName(e.Key)
		values := make([]string, len(e.Values))
		for i, v := range e.Values {
			values[i] = regexp.QuoteMeta(v)
		}
		alt := "(" + strings.Join(values, "|") + ");true"
		switch e.Operator {
		case metav1.LabelSelectorOpIn:
			out = append(out, relabelRule{Action: "keep", SourceLabels: []string{metaPrefix + "_label_" + s, metaPrefix + "_labelpresent_" + s}, Regex: alt}.yaml())
		case metav1.LabelSelectorOpNotIn:
			out = append(out, relabelRule{Action: "drop", SourceLabels: []string{metaPrefix + "_label_" + s, metaPrefix + "_labelpresent_" + s}, Regex: alt}.yaml())
		case metav1.LabelSelectorOpExists:
			out = append(out, relabelRule{Action: "keep", SourceLabels: []string{metaPrefix + "_labelpresent_" + s}, Regex: "true"}.yaml())
		case metav1.LabelSelectorOpDoesNotExist:
			out = append(out, relabelRule{Action: "drop", SourceLabels: []string{metaPrefix + "_labelpresent_" + s}, Regex: "true"}.yaml())
		default:
			return nil, fmt.Errorf("invalid selector: unknown operator %q", e.Operator)
		}
	}
	return out, nil
}

// roleSelectors renders the Kubernetes SD "selectors" entries of roles: the API server
// filters the objects of each role by label instead of Prometheus dropping them after
// discovery. An empty selector selects everything and renders nothing.
func roleSelectors(sel metav1.LabelSelector, roles ...string) ([]M, error) {
	s, err := metav1.LabelSelectorAsSelector(&sel)
	if err != nil {
		return nil, fmt.Errorf("invalid selector: %w", err)
	}
	if s.Empty() {
		return nil, nil
	}
	out := make([]M, 0, len(roles))
	for _, r := range roles {
		out = append(out, M{{"role", r}, {"label", s.String()}})
	}
	return out, nil
}

// namespaces returns the namespaces a monitor's targets are discovered in (nil: all).
func (ps *promSettings) namespaces(ns string, sel monitoringv1.NamespaceSelector) []string {
	switch {
	case ps.IgnoreNamespaceSelectors:
		return []string{ns}
	case sel.Any:
		return nil
	case len(sel.MatchNames) > 0:
		out := append([]string(nil), sel.MatchNames...)
		sort.Strings(out)
		return dedupe(out)
	}
	return []string{ns}
}

func dedupe(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// kubernetesSD renders one kubernetes_sd_configs entry of a job the operator derives
// from a monitor (or an Alertmanager endpoint): in-cluster, or through
// spec.apiserverConfig when the Prometheus sets it. rec reads the Secrets apiserverConfig
// refers to, in the Prometheus's namespace.
func (ps *promSettings) kubernetesSD(rec *recorder, role string, namespaces []string, attachNode bool, selectors []M) (M, error) {
	m := M{{"role", role}}
	if len(namespaces) > 0 {
		m.Set("namespaces", M{{"names", namespaces}})
	}
	if a := ps.APIServer; a != nil {
		m.Set("api_server", a.Host)
		if err := apiServerClient(a).render(&m, rec, ps.Namespace, ps.Version); err != nil {
			return nil, fmt.Errorf("spec.apiserverConfig: %w", err)
		}
	}
	if attachNode {
		m.Set("attach_metadata", M{{"node", true}})
	}
	if ps.NodeLocal && role == "pod" {
		selectors = nodeLocalPods(selectors)
	}
	m.Set("selectors", selectors)
	return m, nil
}

// nodeLocalPods adds the field selector of the agent's own node to the pod selector (one
// per role: Prometheus refuses a role twice), so the API server sends each agent only the
// pods of its node. The reloader replaces $(NODE_NAME).
func nodeLocalPods(selectors []M) []M {
	const field = "spec.nodeName=$(NODE_NAME)"
	out := make([]M, 0, len(selectors)+1)
	found := false
	for _, s := range selectors {
		if r, _ := s.Get("role"); r == "pod" {
			s = append(M(nil), s...)
			s.Set("field", field)
			found = true
		}
		out = append(out, s)
	}
	if !found {
		out = append(out, M{{"role", "pod"}, {"field", field}})
	}
	return out
}

// apiServerClient is the HTTP client of spec.apiserverConfig.
func apiServerClient(a *monitoringv1.APIServerConfig) *httpClient {
	c := &httpClient{
		BasicAuth:       a.BasicAuth,
		BearerToken:     a.BearerToken,
		BearerTokenFile: a.BearerTokenFile,
		TLS:             a.TLSConfig,
		Proxy:           a.ProxyConfig,
	}
	if a.Authorization != nil {
		c.Authorization = &a.Authorization.SafeAuthorization
		c.CredentialsFile = a.Authorization.CredentialsFile
	}
	return c
}
