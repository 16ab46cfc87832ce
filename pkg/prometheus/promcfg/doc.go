// Package promcfg generates prometheus.yaml from a Prometheus object, the monitors selected
// for it and the Secret/ConfigMap values they reference. It is pure: no API calls. Each
// monitor's jobs are rendered and loaded with Prometheus's own loader on their own and
// cached, so a change to one monitor re-renders only that monitor. Nothing is trusted:
// every job of the returned configuration has been loaded, after the config-reloader's
// substitutions, or is one whose verdict provably equals that of text that was (a rule or
// a job shape seen load, ADR 37 and 40; see filecheck.go). A monitor that cannot be rendered or loaded is rejected
// with a reason while the rest of the configuration is still generated.
package promcfg
