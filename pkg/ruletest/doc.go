// Package ruletest runs unit tests of alerting and recording rules written in the test
// file format of `promtool test rules` (rule_files, evaluation_interval, group_eval_order,
// tests with input_series, alert_rule_test and promql_expr_test), where rule_files may
// name PrometheusRule manifests as well as plain Prometheus rule files. It backs
// `lookout-operator test`.
//
// A PrometheusRule is tested as the operator would serve it: validated for the Prometheus
// version, given the namespace-label enforcement of the selecting Prometheus (when one is
// given) and rendered into its rule file with the operator's own function
// (rules.Prepare). The series are loaded and the rules evaluated with Prometheus's own
// packages (promql/promqltest's lazy loader, the rules manager and the PromQL engine),
// step by step as promtool does, and failures are reported in promtool's words.
package ruletest
