package kubelet

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Service is the headless Service without selector that the Endpoints and EndpointSlices
// belong to. Protocol and target port are what the API server would default them to,
// so the stored object is upstream's and compares equal to the desired one.
func Service(o Options) *corev1.Service {
	svc := &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Namespace: o.Namespace, Name: o.Name,
			Labels: o.labels(nil), Annotations: o.annotations(),
		},
		Spec: corev1.ServiceSpec{
			Type:      corev1.ServiceTypeClusterIP,
			ClusterIP: corev1.ClusterIPNone,
		},
	}
	for _, p := range ports(o) {
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{
			Name: p.name, Port: p.port, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(p.port),
		})
	}
	setHash(svc)
	return svc
}

type port struct {
	name string
	port int32
}

// ports are the kubelet ports in upstream's order: https-metrics, cadvisor, then
// http-metrics when enabled.
func ports(o Options) []port {
	out := []port{{HTTPSPortName, HTTPSPort}, {CAdvisorPortName, CAdvisorPort}}
	if o.HTTPMetrics {
		out = append(out, port{HTTPPortName, HTTPPort})
	}
	return out
}

// nodeRef is the target reference of a node's address. Its apiVersion is left empty, as
// upstream leaves it (it copies the TypeMeta of listed Nodes, which is empty).
func nodeRef(a Address) *corev1.ObjectReference {
	return &corev1.ObjectReference{Kind: "Node", Name: a.Node, UID: a.UID}
}

func ptr[T any](v T) *T { return &v }
