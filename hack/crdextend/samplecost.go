package main

// The SampleCost condition of the monitors' status bindings (ADR 0034): upstream's
// condition type is an enum of "Accepted" only; kubectl get shows the first binding's
// cost in a Samples column, after the Targets one (the extension's name sorts after
// "targets").

// samplesColumn is the Samples column of kubectl get: the SampleCost message of the first
// binding ("1,200 samples, 56 series added per scrape from 2 targets (...)").
var samplesColumn = column{
	Name:        "Samples",
	Type:        "string",
	JSONPath:    `.status.bindings[0].conditions[?(@.type=="SampleCost")].message`,
	Description: "Samples and series added per scrape for the first Prometheus that selects the object (SampleCost condition)",
}

func init() {
	extensions = append(extensions, conditionExtension("targets-samplecost", monitorCRDs, "SampleCost", samplesColumn))
}
