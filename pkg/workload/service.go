package workload

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// GoverningService is the headless Service prometheus-operated shared by the Prometheus
// StatefulSets of p's namespace; it gives pods stable DNS names. It selects the pods of
// every Prometheus Lookout manages in the namespace. The controller creates it only when
// ManagesGoverningService(p).
func GoverningService(p *monitoringv1.Prometheus) *corev1.Service {
	port := portName(p)
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      layout.GoverningServiceName,
			Namespace: p.Namespace,
			Labels: map[string]string{
				layout.ManagedByLabel:       layout.ManagedByValue,
				layout.LegacyManagedByLabel: layout.ManagedByValue,
				operatedLabel:               "true",
			},
		},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Ports: []corev1.ServicePort{{
				Name:       port,
				Port:       layout.PrometheusWebPort,
				TargetPort: intstr.FromString(port),
				Protocol:   corev1.ProtocolTCP,
			}},
			Selector: map[string]string{
				layout.NameLabel:      PrometheusNameValue,
				layout.ManagedByLabel: layout.ManagedByValue,
			},
		},
	}
}
