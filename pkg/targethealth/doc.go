// Package targethealth turns what Prometheus's HTTP API says about its scrape targets
// (/api/v1/targets?state=active and /api/v1/scrape_pools) into the health of each
// ServiceMonitor, PodMonitor, Probe and ScrapeConfig: targets up, targets in total, and
// the class of one error of a down target ("connection refused", "server returned HTTP
// status 401"). The scrape pool (job) name Lookout generates names the monitor
// ("serviceMonitor/<namespace>/<name>/<endpoint>"), so one answer per shard serves every
// monitor. The answer is decoded one target at a time and only three fields
// and a hash of the target's labels (for pkg/monitorcost's join) are kept.
//
// The package is pure: no network, no Kubernetes client. The poller that fetches the
// answers and the status machinery that writes the TargetsHealthy condition live in
// pkg/controller/targethealth and pkg/controller/resourcestatus.
package targethealth
