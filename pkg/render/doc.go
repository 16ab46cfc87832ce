// Package render generates, offline, what the operator would generate for manifests read
// from files: the prometheus.yaml of each Prometheus, and for every monitor considered,
// whether it was used and why not. It backs `lookout-operator render`.
package render
