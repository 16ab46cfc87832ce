// Package render generates, offline, what the operator would generate for manifests read
// from files: the prometheus.yaml of each Prometheus, and for every monitor considered,
// whether it was used and why not; and the whole plan of objects of each Prometheus,
// Alertmanager (its configuration generated from its config Secret and the selected
// AlertmanagerConfigs) and ThanosRuler (its rule ConfigMaps). It backs
// `lookout-operator render`.
package render
