package workload

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// defaultUID is the user, group and fsGroup of the pod unless spec.securityContext is set.
const defaultUID = 1000

// PodSecurityContextOr is sc, or the non-root default when sc is nil.
func PodSecurityContextOr(sc *corev1.PodSecurityContext) *corev1.PodSecurityContext {
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

// ContainerSecurityContext hardens every container the operator generates.
func ContainerSecurityContext() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr.To(false),
		ReadOnlyRootFilesystem:   ptr.To(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

// HostAliases converts spec.hostAliases.
func HostAliases(in []monitoringv1.HostAlias) []corev1.HostAlias {
	if len(in) == 0 {
		return nil
	}
	out := make([]corev1.HostAlias, 0, len(in))
	for _, a := range in {
		out = append(out, corev1.HostAlias{IP: a.IP, Hostnames: append([]string(nil), a.Hostnames...)})
	}
	return out
}

// DNSPolicyFor is policy, or ClusterFirstWithHostNet on the host network.
func DNSPolicyFor(policy *monitoringv1.DNSPolicy, hostNetwork bool) corev1.DNSPolicy {
	if policy != nil && *policy != "" {
		return corev1.DNSPolicy(*policy)
	}
	if hostNetwork {
		return corev1.DNSClusterFirstWithHostNet
	}
	return ""
}

// DNSConfig converts spec.dnsConfig.
func DNSConfig(in *monitoringv1.PodDNSConfig) *corev1.PodDNSConfig {
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

func PodNameEnvVar() corev1.EnvVar {
	return corev1.EnvVar{Name: PodNameEnv, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}}
}

func CopyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	return ptr.To(*b)
}
