// Package webhook serves the admission webhooks for PrometheusRule objects: a validating
// webhook that rejects rules Prometheus would refuse, listing every problem (the checks
// of pkg/rules), and a mutating webhook that turns numeric and boolean label and
// annotation values into strings, as users writing `severity: 1` in YAML expect. It also
// writes a self-signed serving certificate for local runs.
package webhook
