package workload

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// defaultUID is the user, group and fsGroup of the pod unless spec.securityContext is set.
const defaultUID = 1000

// podSecurityContext is spec.securityContext, or a non-root default.
func podSecurityContext(p *promserver.Server) *corev1.PodSecurityContext {
	return podSecurityContextOr(p.Spec.SecurityContext)
}

// podSecurityContextOr is sc, or the non-root default when sc is nil.
func podSecurityContextOr(sc *corev1.PodSecurityContext) *corev1.PodSecurityContext {
	if sc != nil {
		return sc.DeepCopy()
	}
	return &corev1.PodSecurityContext{
		RunAsUser:      ptr.To[int64](defaultUID),
		RunAsGroup:     ptr.To[int64](defaultUID),
		FSGroup:        ptr.To[int64](defaultUID),
		RunAsNonRoot:   ptr.To(true),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}

// containerSecurityContext hardens every container the operator generates.
func containerSecurityContext() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr.To(false),
		ReadOnlyRootFilesystem:   ptr.To(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

// podMetadata merges spec.podMetadata with the operator's labels and annotations; the
// operator's win.
func podMetadata(p *promserver.Server, opts Options, shard int32) metav1.ObjectMeta {
	labels := map[string]string{}
	annotations := map[string]string{}
	if m := p.Spec.PodMetadata; m != nil {
		for k, v := range m.Labels {
			labels[k] = v
		}
		for k, v := range m.Annotations {
			annotations[k] = v
		}
	}
	for k, v := range objectLabels(p, shard) {
		labels[k] = v
	}
	annotations[defaultContainerAnnotation] = PrometheusContainerName
	return metav1.ObjectMeta{Labels: withOperatorLabels(opts, labels), Annotations: annotations}
}

// topologySpread converts spec.topologySpreadConstraints; additionalLabelSelectors adds
// the labels of this Prometheus (OnResource) or of this shard (OnShard) to the selector.
func topologySpread(p *promserver.Server, opts Options, shard int32) ([]corev1.TopologySpreadConstraint, error) {
	if len(p.Spec.TopologySpreadConstraints) == 0 {
		return nil, nil
	}
	out := make([]corev1.TopologySpreadConstraint, 0, len(p.Spec.TopologySpreadConstraints))
	for i, c := range p.Spec.TopologySpreadConstraints {
		core := corev1.TopologySpreadConstraint(*c.CoreV1TopologySpreadConstraint.DeepCopy())
		if c.AdditionalLabelSelectors != nil {
			extra := withOperatorLabels(opts, selectorLabels(p, shard))
			switch *c.AdditionalLabelSelectors {
			case monitoringv1.ShardAndResourceNameLabelSelector:
			case monitoringv1.ResourceNameLabelSelector:
				delete(extra, layout.ShardLabel)
			default:
				return nil, fmt.Errorf("spec.topologySpreadConstraints[%d].additionalLabelSelectors %q: must be OnResource or OnShard", i, *c.AdditionalLabelSelectors)
			}
			if core.LabelSelector == nil {
				core.LabelSelector = &metav1.LabelSelector{}
			}
			if core.LabelSelector.MatchLabels == nil {
				core.LabelSelector.MatchLabels = map[string]string{}
			}
			for k, v := range extra {
				core.LabelSelector.MatchLabels[k] = v
			}
		}
		out = append(out, core)
	}
	return out, nil
}

// hostAliases converts spec.hostAliases.
func hostAliases(in []monitoringv1.HostAlias) []corev1.HostAlias {
	if len(in) == 0 {
		return nil
	}
	out := make([]corev1.HostAlias, 0, len(in))
	for _, a := range in {
		out = append(out, corev1.HostAlias{IP: a.IP, Hostnames: append([]string(nil), a.Hostnames...)})
	}
	return out
}

// dnsPolicy is spec.dnsPolicy, or ClusterFirstWithHostNet on the host network.
func dnsPolicy(p *promserver.Server) corev1.DNSPolicy {
	return dnsPolicyFor(p.Spec.DNSPolicy, p.Spec.HostNetwork)
}

// dnsPolicyFor is policy, or ClusterFirstWithHostNet on the host network.
func dnsPolicyFor(policy *monitoringv1.DNSPolicy, hostNetwork bool) corev1.DNSPolicy {
	if policy != nil && *policy != "" {
		return corev1.DNSPolicy(*policy)
	}
	if hostNetwork {
		return corev1.DNSClusterFirstWithHostNet
	}
	return ""
}

// dnsConfig converts spec.dnsConfig.
func dnsConfig(in *monitoringv1.PodDNSConfig) *corev1.PodDNSConfig {
	if in == nil {
		return nil
	}
	out := &corev1.PodDNSConfig{
		Nameservers: append([]string(nil), in.Nameservers...),
		Searches:    append([]string(nil), in.Searches...),
	}
	for _, o := range in.Options {
		opt := corev1.PodDNSConfigOption{Name: o.Name}
		if o.Value != nil {
			opt.Value = ptr.To(*o.Value)
		}
		out.Options = append(out.Options, opt)
	}
	return out
}
