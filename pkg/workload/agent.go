package workload

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// AgentView is the Prometheus the builders (and pkg/promcfg) read for the
// PrometheusAgent a: its metadata and CommonPrometheusFields, with the kind
// PrometheusAgent, which IsAgent tells apart. The fields only a Prometheus has (rules,
// alerting, retention, Thanos, remote read) are empty. a is not modified.
func AgentView(a *monitoringv1alpha1.PrometheusAgent) *monitoringv1.Prometheus {
	p := &monitoringv1.Prometheus{
		TypeMeta:   metav1.TypeMeta{APIVersion: monitoringv1alpha1.SchemeGroupVersion.String(), Kind: monitoringv1alpha1.PrometheusAgentsKind},
		ObjectMeta: *a.ObjectMeta.DeepCopy(),
		Spec:       monitoringv1.PrometheusSpec{CommonPrometheusFields: *a.Spec.CommonPrometheusFields.DeepCopy()},
		Status:     *a.Status.DeepCopy(),
	}
	// spec.mode has no place in a PrometheusSpec: the view carries it in an annotation of
	// its own (set or removed here, whatever the object's annotations say).
	delete(p.Annotations, layout.AgentDaemonSetModeAnnotation)
	if ptr.Deref(a.Spec.Mode, "") == monitoringv1alpha1.DaemonSetPrometheusAgentMode {
		if p.Annotations == nil {
			p.Annotations = map[string]string{}
		}
		p.Annotations[layout.AgentDaemonSetModeAnnotation] = "true"
	}
	return p
}

// DaemonSetMode reports whether p is the AgentView of a PrometheusAgent with spec.mode
// DaemonSet: one agent per node, scraping the pods of its node.
func DaemonSetMode(p *monitoringv1.Prometheus) bool {
	return IsAgent(p) && p.Annotations[layout.AgentDaemonSetModeAnnotation] == "true"
}

// IsAgent reports whether p is the AgentView of a PrometheusAgent.
func IsAgent(p *monitoringv1.Prometheus) bool {
	return p.Kind == monitoringv1alpha1.PrometheusAgentsKind
}

// Instance names p's generated objects (prometheus-<name>... or prom-agent-<name>...).
func Instance(p *monitoringv1.Prometheus) layout.Instance {
	if IsAgent(p) {
		return layout.Agent(p.Name)
	}
	return layout.Prometheus(p.Name)
}

// NameValue is the app.kubernetes.io/name of p's objects.
func NameValue(p *monitoringv1.Prometheus) string {
	if IsAgent(p) {
		return AgentNameValue
	}
	return PrometheusNameValue
}

// mode is the value of prometheus-operator's mode label on p's StatefulSets.
func mode(p *monitoringv1.Prometheus) string {
	if IsAgent(p) {
		return "agent"
	}
	return "server"
}

// governingServiceName is the governing Service the operator manages for p's kind.
func governingServiceName(p *monitoringv1.Prometheus) string {
	if IsAgent(p) {
		return layout.AgentGoverningServiceName
	}
	return layout.GoverningServiceName
}

// kindName is p's kind, for messages.
func kindName(p *monitoringv1.Prometheus) string {
	if IsAgent(p) {
		return monitoringv1alpha1.PrometheusAgentsKind
	}
	return monitoringv1.PrometheusesKind
}

// ruleSlots is the number of rule ConfigMap slots p's pods mount when n rule ConfigMaps
// exist: none for an agent, which runs no rules.
func ruleSlots(p *monitoringv1.Prometheus, n int) int {
	if IsAgent(p) {
		return 0
	}
	return Slots(n)
}
