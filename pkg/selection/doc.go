// Package selection decides which ServiceMonitors, PodMonitors, Probes, ScrapeConfigs and
// PrometheusRules belong to a Prometheus, with prometheus-operator's semantics, and gives
// every object it leaves out a machine-readable reason for status, events and explaining.
// It is pure: callers pass the objects and namespace labels they read.
package selection
