// Package targethealth polls, every --target-health-interval, one ready pod of every
// shard of each Prometheus and PrometheusAgent (StatefulSet mode) whose monitors have
// status bindings, reads /api/v1/targets?state=active and /api/v1/scrape_pools, and
// publishes what it found into the resourcestatus Store, which writes a TargetsHealthy
// condition into the bindings of the ServiceMonitors, PodMonitors, Probes and
// ScrapeConfigs whose health changed, and nothing else. The number of requests per
// period is two per shard, whatever the number of monitors (ADR 0018).
//
// Its RulePoller (rules.go) does the same for rules on the same period: GET /api/v1/rules
// of one ready pod per shard of each Prometheus and of each ThanosRuler whose
// PrometheusRules have bindings, one request per shard whatever the number of rules, and
// the RulesHealthy condition of the PrometheusRules (ADR 0033).
//
// With Deps.Cost (cost.go) the target poll asks one instant query more per shard and
// publishes what each monitor costs (SampleCost) and the Prometheus's TopMonitors
// condition (ADR 0034).
package targethealth
