// Package promctrl reconciles Prometheus objects: it selects their monitors and rules,
// generates the configuration (pkg/prometheus/promcfg), packs rule files (pkg/rules), builds the
// StatefulSets (pkg/workload), writes only what changed (pkg/apply), publishes per-object
// verdicts (pkg/controller/resourcestatus) and reports status and metrics.
package promctrl
