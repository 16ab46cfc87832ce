package main

// The ConfigLoaded condition of Prometheus and PrometheusAgent objects (ADR 17): kubectl
// get shows it in a Config Loaded column.

// configLoadedColumn is the Config Loaded column: the condition's status.
var configLoadedColumn = column{
	Name:        "Config Loaded",
	Type:        "string",
	JSONPath:    ".status.conditions[?(@.type == 'ConfigLoaded')].status",
	Description: "Whether every replica runs the latest generated configuration (with --reloader-report-config)",
}

func init() {
	extensions = append(extensions, extension{
		name: "configloaded",
		files: []string{
			"monitoring.coreos.com_prometheuses.yaml",
			"monitoring.coreos.com_prometheusagents.yaml",
		},
		apply: func(_ string, crd []byte) ([]byte, error) { return addPrinterColumn(crd, configLoadedColumn) },
	})
}
