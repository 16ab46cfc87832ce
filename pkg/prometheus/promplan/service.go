package promplan

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// GoverningService is the headless Service prometheus-operated shared by the Prometheus
// StatefulSets of p's namespace (prometheus-agent-operated for agents); it gives pods
// stable DNS names. It selects the pods of every Prometheus (or agent) in the namespace,
// by app.kubernetes.io/name alone as prometheus-operator does. The controller creates it only when
// ManagesGoverningService(p). With spec.thanos it also has the sidecars' grpc port 10901,
// as prometheus-operator adds it, so that Thanos Query finds them by DNS SRV records.
func GoverningService(p *promserver.Server) *corev1.Service {
	port := portName(p)
	svc := workload.GoverningServiceShape{
		Name:      governingServiceName(p),
		Namespace: p.Namespace,
		Labels: map[string]string{
			layout.ManagedByLabel:       layout.ManagedByValue,
			layout.LegacyManagedByLabel: layout.ManagedByValue,
			operatedLabel:               "true",
		},
		// app.kubernetes.io/name alone, as prometheus-operator selects.
		Selector: map[string]string{layout.NameLabel: NameValue(p)},
		Ports:    []corev1.ServicePort{workload.ServicePort(port, layout.PrometheusWebPort, port, corev1.ProtocolTCP)},
	}.Service()
	if p.PrometheusOnly().Thanos != nil {
		AddThanosGRPCPort(svc)
	}
	return svc
}

// AddThanosGRPCPort adds the Thanos sidecar's grpc port to the governing Service svc
// unless it has a port of that name. The controller adds it when any Prometheus sharing
// the Service has spec.thanos, so that objects with and without the sidecar in one
// namespace do not rewrite the Service in turn.
func AddThanosGRPCPort(svc *corev1.Service) {
	for _, p := range svc.Spec.Ports {
		if p.Name == workload.ThanosGRPCPortName {
			return
		}
	}
	svc.Spec.Ports = append(svc.Spec.Ports, workload.ServicePort(workload.ThanosGRPCPortName, thanosGRPCPort, workload.ThanosGRPCPortName, corev1.ProtocolTCP))
}

// CheckGoverningService checks the Service spec.serviceName names, which the user
// provides (nil when it does not exist): like prometheus-operator, the controller refuses
// to reconcile p unless the Service exists in p's namespace and its selector selects the
// pods of every shard of p. A Service without a selector is accepted, as upstream accepts
// it (its endpoints are then the user's to manage).
func CheckGoverningService(p *promserver.Server, svc *corev1.Service) error {
	pods := objectLabels(p, 0)
	delete(pods, layout.ShardLabel)
	return workload.CheckCustomService(p.Kind(), p.Namespace, ServiceName(p), governingServiceName(p), svc, pods)
}
