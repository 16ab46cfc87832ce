package operator

import (
	"fmt"
	"sort"
	"strings"
)

// UpstreamFlags are the flags of prometheus-operator v0.93's operator binary; the run
// flags accept every one of them with the same name, default and value syntax.
var UpstreamFlags = []string{
	"alertmanager-config-namespaces", "alertmanager-default-base-image", "alertmanager-instance-namespaces",
	"alertmanager-instance-selector", "annotations", "apiserver", "as", "auto-gomemlimit-ratio", "ca-file",
	"cert-file", "cluster-domain", "config-reloader-cpu-limit", "config-reloader-cpu-request",
	"config-reloader-memory-limit", "config-reloader-memory-request", "configmap-field-selector",
	"configmap-label-selector", "controller-id", "deny-namespaces", "disable-unmanaged-prometheus-configuration",
	"enable-config-reloader-probes", "feature-gates", "key-file", "kubelet-endpoints", "kubelet-endpointslice",
	"kubelet-http-metrics", "kubelet-node-address-priority", "kubelet-selector", "kubelet-service",
	"kubelet-sync-period", "labels", "localhost", "log-format", "log-level", "namespaces",
	"prometheus-config-reloader", "prometheus-default-base-image", "prometheus-instance-namespaces",
	"prometheus-instance-selector", "repair-policy-for-statefulsets", "secret-field-selector",
	"secret-label-selector", "short-version", "thanos-default-base-image", "thanos-ruler-instance-namespaces",
	"thanos-ruler-instance-selector", "tls-insecure", "version", "watch-referenced-objects-in-all-namespaces",
	"web.cert-file", "web.client-ca-file", "web.enable-http2", "web.enable-tls", "web.key-file",
	"web.listen-address", "web.tls-cipher-suites", "web.tls-curves", "web.tls-min-version",
	"web.tls-reload-interval",
}

// notAppliedFlags are accepted and parsed into Options, but nothing in Lookout acts on
// them yet: they would belong to kinds or controllers Lookout does not have. Every
// upstream flag is acted on today; the list stays for the next one.
var notAppliedFlags = map[string]bool{}

// actedOnGates are the feature gates Lookout acts on; giving another one is logged as
// not acted on.
var actedOnGates = map[string]bool{
	GateStatusForConfigurationResources: true,
	GatePrometheusShardRetentionPolicy:  true,
	GatePrometheusAgentDaemonSet:        true,
	GatePrometheusTopologySharding:      true,
}

// NotApplied lists the flags on the command line that Lookout accepted but does not act
// on (yet), each as "--name" or "--name (why)", sorted. The operator logs them once at
// start.
func (p *Parsed) NotApplied() []string {
	var out []string
	for _, name := range p.Given {
		if notAppliedFlags[name] {
			out = append(out, "--"+name)
		}
	}
	o := p.Options
	if len(p.gatesGiven) > 0 {
		var gates []string
		for g := range p.gatesGiven {
			if !actedOnGates[g] {
				gates = append(gates, fmt.Sprintf("%s=%t", g, o.FeatureGates[g]))
			}
		}
		if len(gates) > 0 {
			sort.Strings(gates)
			out = append(out, "--feature-gates ("+strings.Join(gates, ",")+")")
		}
	}
	if p.IsGiven("watch-referenced-objects-in-all-namespaces") && !o.WatchReferencedObjectsInAllNamespaces {
		out = append(out, "--watch-referenced-objects-in-all-namespaces=false (Lookout always watches the referenced Secrets and ConfigMaps)")
	}
	if p.IsGiven("web.enable-http2") && o.Web.HTTP2 && !o.Web.TLS {
		out = append(out, "--web.enable-http2 (the web listener is not TLS)")
	}
	if !o.Web.TLS {
		for _, n := range []string{"web.cert-file", "web.key-file", "web.client-ca-file", "web.tls-min-version", "web.tls-cipher-suites", "web.tls-curves", "web.tls-reload-interval"} {
			if p.IsGiven(n) {
				out = append(out, "--"+n+" (--web.enable-tls is off)")
			}
		}
	}
	if p.IsGiven("apiserver") && o.Client.Kubeconfig != "" {
		out = append(out, "--apiserver (--kubeconfig wins)")
	}
	if !strings.HasPrefix(o.Client.APIServer, "https://") || o.Client.Kubeconfig != "" {
		for _, n := range []string{"cert-file", "key-file", "ca-file", "tls-insecure"} {
			if p.IsGiven(n) {
				out = append(out, "--"+n+" (only used with an https --apiserver and no kubeconfig)")
			}
		}
	}
	sort.Strings(out)
	return out
}
