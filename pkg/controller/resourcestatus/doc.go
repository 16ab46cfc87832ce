// Package resourcestatus keeps, for every ServiceMonitor, PodMonitor, Probe, ScrapeConfig
// and PrometheusRule, the verdict of each Prometheus that selected it (accepted, or
// rejected with a reason), and writes it into the object's status.bindings with an
// Accepted condition, only when it changed. Reconcilers publish verdicts into the Store;
// a small controller per kind, fed by the Store through its work queue, applies them with
// server-side apply, so each operator owns only its own bindings and status writes never
// slow down configuration generation. Accepted monitors' bindings also carry a
// TargetsHealthy condition from the target health poller (health.go, ADR 0018), accepted
// PrometheusRules' bindings a RulesHealthy condition from the rules API (rulehealth.go).
package resourcestatus
