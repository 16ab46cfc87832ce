// Package resourcestatus keeps, for every ServiceMonitor, PodMonitor and PrometheusRule,
// the verdict of each Prometheus that selected it (accepted, or rejected with a reason),
// and writes it into the object's status.bindings with an Accepted condition — only when
// it changed. Reconcilers publish verdicts; a small controller per kind writes them, so
// status writes never slow down configuration generation.
package resourcestatus
