// Package promserver reads a Prometheus or a PrometheusAgent as one value: upstream's
// monitoringv1.PrometheusInterface with the object's metadata, its CommonPrometheusFields
// and, for the fields only one kind has, the typed object itself. The builders
// (pkg/workload, pkg/prometheus/promcfg), the pipeline, render and explain take a *Server, so an agent
// is never dressed up as a Prometheus.
package promserver
