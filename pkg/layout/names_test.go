package layout

import (
	"strings"
	"testing"
)

// TestNames pins the generated object names, which prometheus-operator's users (and the
// take-over) rely on.
func TestNames(t *testing.T) {
	p, ag, am, tr := Prometheus("k8s"), Agent("a"), Alertmanager("main"), ThanosRuler("r")
	for _, c := range [][2]string{
		{p.ConfigSecret(), "prometheus-k8s"},
		{p.ConfigPartSecret(2), "prometheus-k8s-config-part-2"},
		{p.TLSAssetsSecret(1), "prometheus-k8s-tls-assets-1"},
		{p.WebConfigSecret(), "prometheus-k8s-web-config"},
		{p.RuleConfigMap(0), "prometheus-k8s-rulefiles-0"},
		{p.StatefulSet(2), "prometheus-k8s-shard-2"},
		{ag.StatefulSet(0), "prom-agent-a"},
		{am.StatefulSet(), "alertmanager-main"},
		{am.GeneratedSecret(), "alertmanager-main-generated"},
		{am.TLSAssetsSecret(0), "alertmanager-main-tls-assets-0"},
		{am.WebConfigSecret(), "alertmanager-main-web-config"},
		{am.ClusterTLSSecret(), "alertmanager-main-cluster-tls-config"},
		{am.StorageVolume(), "alertmanager-main-db"},
		{tr.ConfigSecret(), "thanos-ruler-r-config"},
		{tr.RuleConfigMap(1), "thanos-ruler-r-rulefiles-1"},
		{strings.Join(p.RuleFileGlobs(2), " "), RulesDir + "/prometheus-k8s-rulefiles-0/*.yaml " + RulesDir + "/prometheus-k8s-rulefiles-1/*.yaml"},
		{am.ConfigSecret(), "alertmanager-main"},
	} {
		if c[0] != c[1] {
			t.Errorf("got %s, want %s", c[0], c[1])
		}
	}
}
