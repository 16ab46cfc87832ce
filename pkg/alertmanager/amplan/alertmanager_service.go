package amplan

import (
	"fmt"

	"github.com/lookout-operator/lookout/pkg/workload"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

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
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      layout.AlertmanagerGoverningServiceName,
			Namespace: a.Namespace,
			Labels: map[string]string{
				layout.ManagedByLabel:     layout.ManagedByValue,
				operatedAlertmanagerLabel: "true",
			},
		},
		Spec: corev1.ServiceSpec{
			ClusterIP:                corev1.ClusterIPNone,
			PublishNotReadyAddresses: true,
			Ports: []corev1.ServicePort{
				{Name: port, Port: layout.AlertmanagerWebPort, TargetPort: intstr.FromString(port), Protocol: corev1.ProtocolTCP},
				{Name: "tcp-mesh", Port: layout.AlertmanagerMeshPort, TargetPort: intstr.FromString(meshTCPPortName), Protocol: corev1.ProtocolTCP},
				{Name: "udp-mesh", Port: layout.AlertmanagerMeshPort, TargetPort: intstr.FromString(meshUDPPortName), Protocol: corev1.ProtocolUDP},
			},
			Selector: map[string]string{layout.NameLabel: AlertmanagerNameValue},
		},
	}
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
	replicas := max(ptr.Deref(a.Spec.Replicas, 1), 0)
	st := monitoringv1.AlertmanagerStatus{Paused: a.Spec.Paused, Selector: AlertmanagerSelector(a)}
	var problems []string
	name := layout.Alertmanager(a.Name).StatefulSet()
	if sts != nil {
		want := max(sts.Status.Replicas, ptr.Deref(sts.Spec.Replicas, 1))
		st.Replicas = sts.Status.Replicas
		st.UpdatedReplicas = sts.Status.UpdatedReplicas
		st.AvailableReplicas = sts.Status.AvailableReplicas
		st.UnavailableReplicas = max(want-sts.Status.AvailableReplicas, 0)
		if st.AvailableReplicas < replicas {
			msg := fmt.Sprintf("StatefulSet %s: %d/%d available", name, st.AvailableReplicas, replicas)
			if why := workload.UnreadyPodsOf(pods, func(p *corev1.Pod) bool {
				return p.Labels[layout.AlertmanagerNameLabel] == a.Name && (a.Namespace == "" || p.Namespace == "" || p.Namespace == a.Namespace)
			}); why != "" {
				msg += " (" + why + ")"
			}
			problems = append(problems, msg)
		}
	} else if replicas > 0 {
		problems = append(problems, fmt.Sprintf("StatefulSet %s not found", name))
	}
	available := min(st.AvailableReplicas, replicas)
	st.Conditions = []monitoringv1.Condition{workload.AvailableCondition(replicas, available, problems, a.Generation, a.Status.Conditions, now)}
	return st
}
