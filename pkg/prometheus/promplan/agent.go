package promplan

import (
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// Instance names p's generated objects (prometheus-<name>... or prom-agent-<name>...).
func Instance(p *promserver.Server) layout.Instance {
	if p.IsAgent() {
		return layout.Agent(p.Name)
	}
	return layout.Prometheus(p.Name)
}

// NameValue is the app.kubernetes.io/name of p's objects.
func NameValue(p *promserver.Server) string {
	if p.IsAgent() {
		return AgentNameValue
	}
	return PrometheusNameValue
}

// mode is the value of prometheus-operator's mode label on p's StatefulSets.
func mode(p *promserver.Server) string {
	if p.IsAgent() {
		return "agent"
	}
	return "server"
}

// governingServiceName is the governing Service the operator manages for p's kind.
func governingServiceName(p *promserver.Server) string {
	if p.IsAgent() {
		return layout.AgentGoverningServiceName
	}
	return layout.GoverningServiceName
}

// ruleSlots is the number of rule ConfigMap slots p's pods mount when n rule ConfigMaps
// exist: none for an agent, which runs no rules.
func ruleSlots(p *promserver.Server, n int) int {
	if p.IsAgent() {
		return 0
	}
	return workload.Slots(n)
}
