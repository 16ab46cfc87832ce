package promcfg

import "github.com/lookout-operator/lookout/pkg/promserver"

// podPrefix is the name prefix of p's pods. An agent's configuration has what
// prometheus-operator generates for one: no rule_files, alerting, remote_read,
// evaluation_interval or retention, which Prometheus in agent mode refuses or ignores.
func podPrefix(p *promserver.Server) string {
	if p.IsAgent() {
		return "prom-agent-"
	}
	return "prometheus-"
}
