//lint:file-ignore SA1019 Endpoints (deprecated in Kubernetes 1.33) is what upstream writes and what ServiceMonitors with the default endpoints role discover.

package kubelet

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Endpoints lists every address in one subset, all of them ready, each with a reference
// to its node, as upstream does. Without addresses it has no subset (upstream writes a
// subset without addresses, which the API server rejects). When the operator also writes
// EndpointSlices, the skip-mirror label keeps kube-controller-manager's EndpointSlice
// mirroring controller from duplicating them.
func Endpoints(o Options, addrs []Address) *corev1.Endpoints {
	extra := map[string]string{}
	if o.EndpointSlices {
		extra[discoveryv1.LabelSkipMirror] = "true"
	}
	ep := &corev1.Endpoints{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Endpoints"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: o.Namespace, Name: o.Name,
			Labels: o.labels(extra), Annotations: o.annotations(),
		},
	}
	if len(addrs) > 0 {
		sub := corev1.EndpointSubset{Addresses: make([]corev1.EndpointAddress, len(addrs))}
		for i, a := range addrs {
			sub.Addresses[i] = corev1.EndpointAddress{IP: a.IP, NodeName: ptr(a.Node), TargetRef: nodeRef(a)}
		}
		for _, p := range ports(o) {
			sub.Ports = append(sub.Ports, corev1.EndpointPort{Name: p.name, Port: p.port, Protocol: corev1.ProtocolTCP})
		}
		ep.Subsets = []corev1.EndpointSubset{sub}
	}
	setHash(ep)
	return ep
}
