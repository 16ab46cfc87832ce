// Package rulehealth turns what Prometheus's (or Thanos Ruler's) rules API
// (/api/v1/rules) says into the health of each PrometheusRule: rules evaluating, rules in
// total, one evaluation error ("rule HighLatency (group g): many-to-many matching not
// allowed: ..."), the alerts firing, and the groups whose last evaluation took longer
// than their interval. The rule file Lookout generates for an object,
// "<namespace>-<name>-<uid>.yaml", is the "file" of its groups in the answer, so one
// answer per shard serves every PrometheusRule. The answer is decoded one group at a
// time and only the fields the health needs are kept.
//
// The package is pure: no network, no Kubernetes client. The poller lives in
// pkg/controller/targethealth (rules.go) and the RulesHealthy condition is written by
// pkg/controller/resourcestatus.
package rulehealth
