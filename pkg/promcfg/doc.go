// Package promcfg generates prometheus.yaml from a Prometheus object, the monitors selected
// for it and the Secret/ConfigMap values they reference. It is pure: no API calls. Each
// monitor's jobs are rendered and validated on their own and cached, so a change to one
// monitor re-renders only that monitor; the assembled configuration is what Prometheus's
// own loader accepts, and a monitor that cannot be rendered is rejected with a reason while
// the rest of the configuration is still generated.
package promcfg
