package main

// The RulesHealthy condition of the PrometheusRules' status bindings (ADR 0033):
// upstream's condition type is an enum of "Accepted" only, so the API server would refuse
// the condition; and kubectl get shows the first binding's rule health and firing alerts.

// rulesColumn is the Rules column of kubectl get: the RulesHealthy message of the first
// binding ("12/12 rules evaluating, 3 firing", "11/12: rule HighLatency (group g): ...").
var rulesColumn = column{
	Name:        "Rules",
	Type:        "string",
	JSONPath:    `.status.bindings[0].conditions[?(@.type=="RulesHealthy")].message`,
	Description: "Rules evaluating and alerts firing in the first Prometheus or ThanosRuler that selects the object (RulesHealthy condition)",
}

func init() {
	extensions = append(extensions, conditionExtension("rules", []string{"monitoring.coreos.com_prometheusrules.yaml"}, "RulesHealthy", rulesColumn))
}
