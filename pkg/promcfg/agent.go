package promcfg

import (
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/layout"
)

// isAgent reports whether p stands for a PrometheusAgent (pkg/workload's AgentView sets
// its kind). An agent's configuration has what prometheus-operator generates for one: no
// rule_files, alerting, remote_read, evaluation_interval or retention, which Prometheus
// in agent mode refuses or ignores.
func isAgent(p *monitoringv1.Prometheus) bool {
	return p.Kind == monitoringv1alpha1.PrometheusAgentsKind
}

// nodeLocal reports whether p stands for a PrometheusAgent in DaemonSet mode: one agent
// per node, discovering only the pods of its node (NODE_NAME, which the reloader has).
func nodeLocal(p *monitoringv1.Prometheus) bool {
	return isAgent(p) && p.Annotations[layout.AgentDaemonSetModeAnnotation] == "true"
}

// podPrefix is the name prefix of p's pods.
func podPrefix(p *monitoringv1.Prometheus) string {
	if isAgent(p) {
		return "prom-agent-"
	}
	return "prometheus-"
}
