// Package lint checks manifests of the monitoring.coreos.com API before they reach a
// cluster: PrometheusRules (alerts without `for` or annotations, short rate ranges,
// recording-rule names, duplicate alerts, labels the namespace enforcement overwrites,
// rules no Prometheus selects) and monitors (selectors and ports that match nothing,
// monitors no Prometheus selects, timeouts longer than the interval, relabelings that
// drop every target). Each check is a named, documented entry of a registry with a
// severity, and can be switched off per run, per file and per object.
//
// Which Prometheus selects what is decided by pkg/render (the operator's own selection
// and generation, offline); targets and relabeling by pkg/explain (Prometheus's own
// discovery and relabel code). It backs `lookout-operator lint`.
//
// In live mode (Options.Live, ReadLive) the documents are laid over the objects of a
// cluster read by pkg/clusterread, and monitor-sample-limit-exceeded compares what each
// monitor's busiest target exposes, measured by pkg/costtop, with the sample limit in
// force (pkg/monitorcost).
package lint
