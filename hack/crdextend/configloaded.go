package main

// The ConfigLoaded condition of Prometheus and PrometheusAgent objects (ADR 17), shown by
// kubectl get.
func init() {
	col := column{
		Name:        "Config Loaded",
		Type:        "string",
		JSONPath:    ".status.conditions[?(@.type == 'ConfigLoaded')].status",
		Description: "Whether every replica runs the latest generated configuration (with --reloader-report-config)",
	}
	addColumns("monitoring.coreos.com_prometheuses.yaml", col)
	addColumns("monitoring.coreos.com_prometheusagents.yaml", col)
}
