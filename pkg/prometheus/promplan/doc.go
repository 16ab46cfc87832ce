// Package promplan builds, without calling the API server, every object a Prometheus or
// a PrometheusAgent generates (PrometheusPlan): a StatefulSet per shard or, for an agent
// in DaemonSet mode, a DaemonSet, with the Thanos sidecar, the governing Service, the
// web configuration, the config-reloader's Role, and the status computed from the live
// workload. The pieces every kind shares are in pkg/workload.
package promplan
