package rules

import (
	"fmt"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// benchRules builds n PrometheusRules of one group with perRule rules each: half
// recording rules, half alerts with templated annotations, as in common mixins.
func benchRules(n, perRule int) []*monitoringv1.PrometheusRule {
	out := make([]*monitoringv1.PrometheusRule, n)
	for i := range n {
		r := &monitoringv1.PrometheusRule{}
		r.Namespace = fmt.Sprintf("team-%02d", i%50)
		r.Name = fmt.Sprintf("rules-%04d", i)
		r.UID = types.UID(fmt.Sprintf("%08d-0000-4000-8000-000000000000", i))
		r.Generation = 1
		g := monitoringv1.RuleGroup{Name: fmt.Sprintf("group-%d", i)}
		interval := monitoringv1.Duration("1m")
		g.Interval = &interval
		for j := range perRule {
			if j%2 == 0 {
				g.Rules = append(g.Rules, monitoringv1.Rule{
					Record: fmt.Sprintf("job:http_requests_%d:rate5m", j),
					Expr: intstr.FromString(fmt.Sprintf(
						`sum by (job, instance) (rate(http_requests_total{code=~"5..",handler!="/metrics",shard="%d"}[5m])) / sum by (job, instance) (rate(http_requests_total[5m]))`, j)),
					Labels: map[string]string{"team": "payments"},
				})
				continue
			}
			forDur := monitoringv1.Duration("10m")
			g.Rules = append(g.Rules, monitoringv1.Rule{
				Alert: fmt.Sprintf("HighErrorRate%d", j),
				Expr: intstr.FromString(fmt.Sprintf(
					`histogram_quantile(0.99, sum by (le, job) (rate(http_request_duration_seconds_bucket{job="api-%d"}[5m]))) > 0.5 and on (job) up{job="api-%d"} == 1`, j, j)),
				For:    &forDur,
				Labels: map[string]string{"severity": "warning", "team": "payments"},
				Annotations: map[string]string{
					"summary":     "High latency on {{ $labels.job }}",
					"description": "The 99th percentile latency of {{ $labels.job }} is {{ $value | humanizeDuration }} for 10 minutes.",
					"runbook_url": "https://runbooks.example.invalid/HighErrorRate",
				},
			})
		}
		r.Spec.Groups = []monitoringv1.RuleGroup{g}
		out[i] = r
	}
	return out
}

// BenchmarkValidateAndPack1000x20 is what the Prometheus controller does for 1,000
// selected PrometheusRules of 20 rules each: validate, render and pack.
func BenchmarkValidateAndPack1000x20(b *testing.B) {
	rules := benchRules(1000, 20)
	v, err := NewValidator(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		files := make(map[string][]byte, len(rules))
		for _, r := range rules {
			if ps := v.Validate(r.Spec); len(ps) > 0 {
				b.Fatal(Problems(ps))
			}
			f, err := RenderFile(r, r.Spec)
			if err != nil {
				b.Fatal(err)
			}
			files[FileName(r)] = f
		}
		cms, tooLarge := Pack(files, 0)
		if len(cms) == 0 || len(tooLarge) > 0 {
			b.Fatalf("packed into %d ConfigMaps, %d too large", len(cms), len(tooLarge))
		}
	}
}

// BenchmarkValidate1000x20 is validation alone.
func BenchmarkValidate1000x20(b *testing.B) {
	rules := benchRules(1000, 20)
	v, err := NewValidator(Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, r := range rules {
			if ps := v.Validate(r.Spec); len(ps) > 0 {
				b.Fatal(Problems(ps))
			}
		}
	}
}

// BenchmarkEnforceNamespaceLabel1000x20 rewrites every expression of 1,000 objects.
func BenchmarkEnforceNamespaceLabel1000x20(b *testing.B) {
	rules := benchRules(1000, 20)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, r := range rules {
			if _, err := EnforceNamespaceLabel(r.Spec, "namespace", r.Namespace); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPackStable1000 re-packs 1,000 rendered files over their previous layout.
func BenchmarkPackStable1000(b *testing.B) {
	rules := benchRules(1000, 20)
	files := make(map[string][]byte, len(rules))
	for _, r := range rules {
		f, err := RenderFile(r, r.Spec)
		if err != nil {
			b.Fatal(err)
		}
		files[FileName(r)] = f
	}
	previous, _ := Pack(files, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		PackStable(files, 0, previous)
	}
}
