package lint

import "testing"

func TestRuleMissingFor(t *testing.T) {
	runCases(t, "rule-missing-for", []checkCase{
		{"rate without for", promRule("a", "r", alert("A", `rate(errors_total[5m]) > 10`, "")), 1, "rate()"},
		{"gauge without for", promRule("a", "r", alert("A", `node_load1 > 4`, "")), 1, "raw series node_load1"},
		{"for zero is no for", promRule("a", "r", alert("A", `node_load1 > 4`, "      for: 0s\n")), 1, ""},
		{"with for", promRule("a", "r", alert("A", `rate(errors_total[5m]) > 10`, "      for: 5m\n")), 0, ""},
		{"state test", promRule("a", "r", alert("A", `up == 0`, "")), 0, ""},
		{"anything at all", promRule("a", "r", alert("A", `increase(errors_total[5m]) > 0`, "")), 0, ""},
		{"smoothed", promRule("a", "r", alert("A", `avg_over_time(node_load1[10m]) > 4`, "")), 0, ""},
		{"an age", promRule("a", "r", alert("A", `time() - job_last_success_timestamp_seconds > 3600`, "")), 0, ""},
		{"a TTL", promRule("a", "r", alert("A", `cert_ttl_seconds < 86400`, "")), 0, ""},
		{"record", promRule("a", "r", "    - record: a:b:c\n      expr: node_load1 > 4\n"), 0, ""},
	})
}

func TestRuleMissingAnnotations(t *testing.T) {
	runCases(t, "rule-missing-annotations", []checkCase{
		{"none", promRule("a", "r", "    - alert: A\n      expr: up == 0\n"), 1, "no summary and no description"},
		{"no description", promRule("a", "r", "    - alert: A\n      expr: up == 0\n      annotations: {summary: s}\n"), 1, "no description"},
		{"both", promRule("a", "r", alert("A", "up == 0", "")), 0, ""},
	})
}

func TestRuleMissingRunbook(t *testing.T) {
	runCases(t, "rule-missing-runbook", []checkCase{
		{"none", promRule("a", "r", "    - alert: A\n      expr: up == 0\n      annotations: {summary: s}\n"), 1, "runbook_url"},
		{"present", promRule("a", "r", alert("A", "up == 0", "")), 0, ""},
	})
}

func TestRuleShortRange(t *testing.T) {
	runCases(t, "rule-short-range", []checkCase{
		{"default interval", promRule("a", "r", alert("A", `rate(x_total[1m]) > 1`, "")), 1, "less than 4 scrape intervals of 30s: use at least [2m]"},
		{"default interval, long enough", promRule("a", "r", alert("A", `rate(x_total[2m]) > 1`, "")), 0, ""},
		{"selecting Prometheus's interval", docs(prometheus("  scrapeInterval: 60s\n"), promRule("a", "r", alert("A", `max_over_time(x[3m]) > 1`, ""))), 1, "use at least [4m]"},
		{"selecting Prometheus's interval, long enough", docs(prometheus("  scrapeInterval: 60s\n"), promRule("a", "r", alert("A", `increase(x_total[4m]) > 1`, ""))), 0, ""},
		{"irate too", promRule("a", "r", "    - record: a:b:irate\n      expr: irate(x_total[1m])\n"), 1, "irate("},
		{"subquery ranges are not scrape ranges", promRule("a", "r", alert("A", `max_over_time(rate(x_total[5m])[1m:10s]) > 1`, "")), 0, ""},
	})
}

func TestRuleRecordName(t *testing.T) {
	runCases(t, "rule-record-name", []checkCase{
		{"plain name", promRule("a", "r", "    - record: http_requests_rate\n      expr: rate(x_total[5m])\n"), 1, "level:metric:operations"},
		{"two parts", promRule("a", "r", "    - record: job:http_requests\n      expr: rate(x_total[5m])\n"), 1, ""},
		{"empty part", promRule("a", "r", "    - record: \"job:http_requests:\"\n      expr: rate(x_total[5m])\n"), 1, ""},
		{"three parts", promRule("a", "r", "    - record: job:http_requests:rate5m\n      expr: rate(x_total[5m])\n"), 0, ""},
	})
}

func TestRuleDuplicateAlert(t *testing.T) {
	a := alert("Down", "up == 0", "      labels: {severity: critical}\n")
	warn := alert("Down", "up == 0", "      labels: {severity: warning}\n")
	runCases(t, "rule-duplicate-alert", []checkCase{
		{"same namespace, same labels", docs(promRule("a", "r1", a), promRule("a", "r2", a)), 1, "duplicates the alert of PrometheusRule a/r1"},
		{"same rule twice", promRule("a", "r1", a+a), 1, ""},
		{"other severity", docs(promRule("a", "r1", a), promRule("a", "r2", warn)), 0, ""},
		{"other namespace", docs(promRule("a", "r1", a), promRule("b", "r2", a)), 0, ""},
	})
}

func TestRuleEnforcedLabel(t *testing.T) {
	enforced := prometheus("  enforcedNamespaceLabel: namespace\n")
	runCases(t, "rule-enforced-label", []checkCase{
		{"label overwritten", docs(enforced, promRule("a", "r", alert("A", "up == 0", "      labels: {namespace: other}\n"))), 1, `namespace="other" is overwritten with "a"`},
		{"matcher replaced", docs(enforced, promRule("a", "r", alert("A", `up{namespace=~"a|b"} == 0`, ""))), 1, "is replaced by namespace=\"a\""},
		{"own namespace", docs(enforced, promRule("a", "r", alert("A", `up{namespace="a"} == 0`, "      labels: {namespace: a}\n"))), 0, ""},
		{"no enforcement", docs(prometheus(""), promRule("a", "r", alert("A", "up == 0", "      labels: {namespace: other}\n"))), 0, ""},
		{"excluded from enforcement", docs(prometheus("  enforcedNamespaceLabel: namespace\n  excludedFromEnforcement:\n  - {resource: prometheusrules, namespace: a}\n"),
			promRule("a", "r", alert("A", "up == 0", "      labels: {namespace: other}\n"))), 0, ""},
	})
}

func TestRuleUnselected(t *testing.T) {
	picky := `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s, namespace: mon}
spec:
  ruleSelector: {matchLabels: {role: alerts}}
  ruleNamespaceSelector: {}
`
	labelled := `apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata: {name: r, namespace: a, labels: {role: alerts}}
spec:
  groups:
  - name: g
    rules:
` + alert("A", "up == 0", "")
	runCases(t, "rule-unselected", []checkCase{
		{"not selected", docs(picky, promRule("a", "r", alert("A", "up == 0", ""))), 1, "NotSelectedByLabels"},
		{"selected", docs(picky, labelled), 0, ""},
		{"no Prometheus in the files", promRule("a", "r", alert("A", "up == 0", "")), 0, ""},
	})
}
