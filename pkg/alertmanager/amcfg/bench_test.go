package amcfg_test

import (
	"fmt"
	"testing"

	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/alertmanager/amcfg"
)

// benchConfigs returns n AlertmanagerConfigs across 50 namespaces, each with a route, two
// receivers (webhook with TLS, slack), an inhibit rule and a time interval.
func benchConfigs(b *testing.B, n int) ([]*monitoringv1alpha1.AlertmanagerConfig, amcfg.MapAssets) {
	assets := amcfg.MapAssets{}
	out := make([]*monitoringv1alpha1.AlertmanagerConfig, n)
	for i := 0; i < n; i++ {
		ns := fmt.Sprintf("ns%d", i%50)
		assets["secret/"+ns+"/s/url"] = "https://hooks.example.com/" + ns
		assets["secret/"+ns+"/s/ca.crt"] = "CA " + ns
		out[i] = mustAMC(b, amc(ns, fmt.Sprintf("team%d", i), `
  route:
    receiver: hook
    groupBy: [alertname]
    routes:
    - receiver: chat
      matchers: [{name: severity, value: critical, matchType: "="}]
      muteTimeIntervals: [nights]
  receivers:
  - name: hook
    webhookConfigs:
    - url: https://example.com/hook
      httpConfig:
        tlsConfig: {ca: {secret: {name: s, key: ca.crt}}}
  - name: chat
    slackConfigs:
    - apiURL: {name: s, key: url}
      channel: "#alerts"
  inhibitRules:
  - sourceMatch: [{name: severity, value: critical}]
    targetMatch: [{name: severity, value: warning}]
    equal: [alertname]
  muteTimeIntervals:
  - name: nights
    timeIntervals:
    - times: [{startTime: "00:00", endTime: "06:00"}]`))
	}
	return out, assets
}

// BenchmarkGenerate1000 generates from 1,000 AlertmanagerConfigs: cold (a new Generator
// each time, as the package-level Generate) and with one object changed between runs of
// the same Generator.
func BenchmarkGenerate1000(b *testing.B) {
	configs, assets := benchConfigs(b, 1000)
	in := tcase{}.input(b)
	in.Configs, in.Assets = configs, assets
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			res, err := amcfg.Generate(in)
			if err != nil || len(res.Verdicts) != 1000 {
				b.Fatal(err)
			}
		}
	})
	b.Run("one_changed", func(b *testing.B) {
		g := amcfg.NewGenerator()
		if _, err := g.Generate(in); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			changed := *configs[i%1000]
			changed.Spec.Route = changed.Spec.Route.DeepCopy()
			changed.Spec.Route.GroupBy = []string{"alertname", fmt.Sprintf("x%d", i)}
			in2 := in
			in2.Configs = append(append([]*monitoringv1alpha1.AlertmanagerConfig(nil), configs...), nil)
			in2.Configs[i%1000] = &changed
			res, err := g.Generate(in2)
			if err != nil || len(res.Verdicts) != 1000 {
				b.Fatal(err)
			}
		}
	})
}
