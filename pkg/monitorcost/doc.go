// Package monitorcost measures what each ServiceMonitor, PodMonitor, Probe and
// ScrapeConfig costs a Prometheus: the samples its targets' scrapes keep and the series
// they add, per scrape, summed over its targets and the shards. Prometheus writes
// scrape_samples_post_metric_relabeling and scrape_series_added for every target with
// the target's labels, in which relabeling often rewrites job, so no label names the
// monitor; the targets answer names the scrape pool (the job name Lookout generates,
// "serviceMonitor/<ns>/<name>/<i>") beside the same labels. The package joins the two
// on a hash of the label set (targethealth.LabelSetHash): one targets answer and one
// instant query per shard serve every monitor (ADR 0034).
//
// It also says how near each monitor's busiest target is to the sample limit in force
// (the limit applies to each scrape of each target) and rounds every figure to two
// significant digits, so that a status written from them changes only when a figure
// moves. The package is pure: no network, no Kubernetes client.
package monitorcost
