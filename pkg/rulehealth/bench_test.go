package rulehealth

import (
	"bytes"
	"fmt"
	"testing"
)

// rulesAnswer generates an answer of /api/v1/rules with objects PrometheusRules of
// groups of rulesPerGroup rules each, every second rule an alerting rule with two
// firing alerts, as a kube-prometheus-like Prometheus would answer.
func rulesAnswer(objects, rulesPerGroup int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"status":"success","data":{"groups":[`)
	for o := range objects {
		if o > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"group-%d","file":"/etc/prometheus/rules/prometheus-k8s-rulefiles-0/monitoring-rules-%d-0b0e1d5c-3a7f-4c3e-9a59-%012d.yaml","rules":[`, o, o, o)
		for r := range rulesPerGroup {
			if r > 0 {
				b.WriteByte(',')
			}
			if r%2 == 0 {
				fmt.Fprintf(&b, `{"name":"job:http_requests:rate5m_%d","query":"sum by (job, namespace) (rate(http_requests_total{job=~\"app-.*\"}[5m]))","labels":{"team":"platform"},"health":"ok","evaluationTime":0.000412,"lastEvaluation":"2026-12-05T10:01:00.123456789Z","type":"recording"}`, r)
				continue
			}
			fmt.Fprintf(&b, `{"state":"firing","name":"HighErrorRate%d","query":"sum by (job) (rate(http_requests_total{code=~\"5..\"}[5m])) / sum by (job) (rate(http_requests_total[5m])) > 0.05","duration":600,"keepFiringFor":0,"labels":{"severity":"warning","team":"platform"},"annotations":{"description":"{{ $labels.job }} has {{ $value | humanizePercentage }} errors","runbook_url":"https://runbooks.example/HighErrorRate","summary":"High error rate"},"alerts":[`, r)
			for a := range 2 {
				if a > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, `{"labels":{"alertname":"HighErrorRate%d","job":"app-%d","severity":"warning","team":"platform"},"annotations":{"description":"app-%d has 7.5%% errors","runbook_url":"https://runbooks.example/HighErrorRate","summary":"High error rate"},"state":"firing","activeAt":"2026-12-05T09:00:00Z","value":"7.5e-02"}`, r, a, a)
			}
			b.WriteString(`],"health":"ok","evaluationTime":0.00132,"lastEvaluation":"2026-12-05T10:01:00.123456789Z","type":"alerting"}`)
		}
		b.WriteString(`],"interval":30,"limit":0,"evaluationTime":0.0123,"lastEvaluation":"2026-12-05T10:01:00Z"}`)
	}
	b.WriteString(`]}}`)
	return b.Bytes()
}

// BenchmarkParseRules parses and counts an answer of 1,000 rules (100 PrometheusRules of
// 10 rules, 500 alerting rules with 2 firing alerts each).
func BenchmarkParseRules(b *testing.B) {
	answer := rulesAnswer(100, 10)
	b.SetBytes(int64(len(answer)))
	b.ReportAllocs()
	for b.Loop() {
		s := NewSnapshot()
		s.Shard()
		if err := ParseRules(bytes.NewReader(answer), s.AddGroup); err != nil {
			b.Fatal(err)
		}
		if h := s.Health("monitoring", "rules-7"); h.Total != 10 || h.Firing != 10 {
			b.Fatalf("health %+v", h)
		}
	}
	b.ReportMetric(float64(len(answer)), "answer-bytes")
}

// TestRulesAnswerCounts checks the benchmark's answer: 1,000 rules, every object
// evaluating, 10 firing alerts each.
func TestRulesAnswerCounts(t *testing.T) {
	s := NewSnapshot()
	s.Shard()
	n := 0
	if err := ParseRules(bytes.NewReader(rulesAnswer(100, 10)), func(g Group) { n += len(g.Rules); s.AddGroup(g) }); err != nil {
		t.Fatal(err)
	}
	if n != 1000 {
		t.Fatalf("%d rules, want 1000", n)
	}
	if h := s.Health("monitoring", "rules-99"); h != (Health{State: StateEvaluating, OK: 10, Total: 10, Firing: 10}) {
		t.Errorf("got %+v", h)
	}
}
