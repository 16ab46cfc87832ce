package main

// The TargetsHealthy condition of the monitors' status bindings (ADR 0018): upstream's
// condition type is an enum of "Accepted" only, so the API server would refuse the
// condition; and kubectl get shows the first binding's target health.

// targetsColumn is the Targets column of kubectl get: the TargetsHealthy message of the
// first binding ("2/2 up", "0/2 up: connection refused").
var targetsColumn = column{
	Name:        "Targets",
	Type:        "string",
	JSONPath:    `.status.bindings[0].conditions[?(@.type=="TargetsHealthy")].message`,
	Description: "Targets up of the first Prometheus that selects the object (TargetsHealthy condition)",
}

func init() {
	extensions = append(extensions, conditionExtension("targets", monitorCRDs, "TargetsHealthy", targetsColumn))
}
