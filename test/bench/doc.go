// Command bench is Lookout's scale benchmark (`make bench`). For each N it starts a fresh
// local control plane (kube-apiserver and etcd from bin/, through envtest), creates N
// ServiceMonitors spread over many namespaces (each with a headless Service and an
// EndpointSlice), 10,000 unrelated 10 KiB Secrets and one Prometheus selecting every
// monitor, then starts the operator under test as a child process and measures:
//
//   - the time from the operator's start to a config Secret that holds every job;
//   - the latency of single-ServiceMonitor changes (median, p99, worst) and the API writes
//     each one causes;
//   - the API writes made while idle (must be zero);
//   - the operator's CPU seconds and its peak (VmHWM) and steady (VmRSS) resident memory,
//     sampled from /proc.
//
// With -kind=alertmanagerconfigs it creates N AlertmanagerConfigs instead (one webhook
// receiver each, with a URL unique to the object and credentials from a Secret of the
// namespace) and one Alertmanager selecting them, watches the generated Alertmanager config
// Secret, and changes one object's webhook URL at a time. What differs between the kinds
// is in kinds.go; the measurements and the report are shared.
//
// With -fake-prometheus-api it serves, on loopback behind a ready Pod object of the
// Prometheus, what the operator's status poll asks (promapi.go, promanswers.go): the
// targets and scrape pools of every monitor, the sample cost query and, with -rules, the
// rules API for the PrometheusRules it created; it counts the requests and bytes it serves
// and reports, with -health-interval, the cost of one poll (statuspoll.go).
//
// With -e2e (servicemonitors, root) it runs the operator's Prometheus StatefulSet pods as
// local processes with pkg/localpods, bin/prometheus playing the Prometheus image and the
// reloader of -reloader (api: Lookout's, reading the config Secret through the API; file:
// Lookout's, reading the volume the kubelet stand-in re-projects every -kubelet-sync;
// upstream: prometheus-operator's) playing the reloader image, with -replicas and -shards
// on the Prometheus (e2e.go). It re-executes itself in a mount namespace of its own where a
// service account token, the control plane's CA and the namespace are at the in-cluster
// path, so Prometheus's discovery and the reloader reach the harness's API server as in a
// cluster, and the configuration reaches Prometheus unrewritten. Each change is followed
// per replica through its steps (e2esteps.go): the config Secret holding it (the watch),
// the reloader's input holding it (the reloader's log or the volume projection),
// Prometheus's "Completed loading of configuration file" log line, and, with Lookout, the
// Prometheus's ConfigLoaded condition naming the new hash; the section gets a table of
// those figures (e2ereport.go).
//
// The operator is only given a kubeconfig (as --kubeconfig, configurable with -append,
// and as $KUBECONFIG) for a user of its own, so any operator serving the
// monitoring.coreos.com API can be measured by the same run. Its writes are counted by
// the API server, not by the operator: an audit policy logs that user's requests and the
// harness reads the audit log.
//
// The results are printed and, with -out, written as a Markdown table into a marked
// section of that file together with the command that produced them.
package main
