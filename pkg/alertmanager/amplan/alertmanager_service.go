package amplan

import (
	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// AlertmanagerGoverningService is the headless Service alertmanager-operated shared by
// the Alertmanager StatefulSets of a's namespace: it gives the pods the stable DNS names
// the --cluster.peer flags use, and publishes pods before they are ready so that peers
// find each other while they start. Like prometheus-operator's, it selects every
// Alertmanager pod of the namespace. The controller creates it only when
// ManagesAlertmanagerService(a).
func AlertmanagerGoverningService(a *monitoringv1.Alertmanager) *corev1.Service {
	port := amPortName(a)
	return workload.GoverningServiceShape{
		Name:                     layout.AlertmanagerGoverningServiceName,
		Namespace:                a.Namespace,
		Labels:                   map[string]string{layout.ManagedByLabel: layout.ManagedByValue, operatedAlertmanagerLabel: "true"},
		Selector:                 map[string]string{layout.NameLabel: AlertmanagerNameValue},
		PublishNotReadyAddresses: true,
		Ports: []corev1.ServicePort{
			workload.ServicePort(port, layout.AlertmanagerWebPort, port, corev1.ProtocolTCP),
			workload.ServicePort("tcp-mesh", layout.AlertmanagerMeshPort, meshTCPPortName, corev1.ProtocolTCP),
			workload.ServicePort("udp-mesh", layout.AlertmanagerMeshPort, meshUDPPortName, corev1.ProtocolUDP),
		},
	}.Service()
}

// CheckAlertmanagerService checks the Service spec.serviceName names (nil when it does
// not exist), which the user provides: like prometheus-operator, the controller refuses to
// reconcile a unless it exists in a's namespace and its selector selects a's pods (a
// Service without a selector is accepted).
func CheckAlertmanagerService(a *monitoringv1.Alertmanager, svc *corev1.Service) error {
	return workload.CheckCustomService("Alertmanager", a.Namespace, AlertmanagerServiceName(a), layout.AlertmanagerGoverningServiceName, svc, alertmanagerSelectorLabels(a.Name))
}

// AlertmanagerStatus computes the status of a from its live StatefulSet (nil when it
// does not exist) and, when the controller has them, its pods (to explain which are not
// ready): replicas counts, selector, paused and the Available condition. The controller
// adds Reconciled.
func AlertmanagerStatus(a *monitoringv1.Alertmanager, sts *appsv1.StatefulSet, pods []corev1.Pod, now metav1.Time) monitoringv1.AlertmanagerStatus {
	c, available := workload.OneStatefulSet{
		Name: a.Name, Namespace: a.Namespace, Generation: a.Generation, SpecReplicas: a.Spec.Replicas,
		StatefulSet: layout.Alertmanager(a.Name).StatefulSet(), Live: sts, Pods: pods,
		NameLabel: layout.AlertmanagerNameLabel, Conditions: a.Status.Conditions,
	}.Status(now)
	return monitoringv1.AlertmanagerStatus{
		Paused: a.Spec.Paused, Selector: AlertmanagerSelector(a),
		Replicas: c.Replicas, UpdatedReplicas: c.Updated, AvailableReplicas: c.Available, UnavailableReplicas: c.Unavailable,
		Conditions: []monitoringv1.Condition{available},
	}
}
