package promctrl

import (
	"fmt"
	"math/rand/v2"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// splitBenchMonitors are n ServiceMonitors over 500 namespaces, one endpoint each, with a
// relabeling that carries 16 random bytes (the same ones on every call).
func splitBenchMonitors(n int) []*monitoringv1.ServiceMonitor {
	rng := rand.New(rand.NewPCG(5, 6))
	sms := make([]*monitoringv1.ServiceMonitor, n)
	for i := range sms {
		sms[i] = &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("svc-%06d", i), Namespace: fmt.Sprintf("ns-%03d", i%500), UID: types.UID(fmt.Sprint(i)), Generation: 1},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("svc-%06d", i)}},
				Endpoints: []monitoringv1.Endpoint{{Port: "web", Interval: "30s", RelabelConfigs: []monitoringv1.RelabelConfig{
					{Action: "replace", TargetLabel: "build", Replacement: ptrTo(fmt.Sprintf("%016x%016x", rng.Uint64(), rng.Uint64()))},
				}}},
			},
		}
	}
	return sms
}

// BenchmarkConfigSplit spreads the configuration of 100,000 ServiceMonitors (one
// endpoint each, with a relabeling that carries 16 random bytes, so that it compresses
// like real configurations with many distinct label values rather than 90 times) over
// Secrets: cold (every part compressed) and after one monitor changed (one part
// compressed again). It reports the compressed size and the number of parts.
//
//	go test -run '^$' -bench ConfigSplit -benchtime 5x ./pkg/prometheus/promctrl
func BenchmarkConfigSplit(b *testing.B) {
	const n = 100_000
	sms := splitBenchMonitors(n)
	g := promcfg.NewGenerator()
	in := promcfg.Input{Prometheus: promserver.Of(prom("p")), Monitors: monitorkind.Set{ServiceMonitors: sms}}
	res, err := g.Generate(in)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("cold/monitors=100000", func(b *testing.B) {
		var s splitConfig
		for range b.N {
			st := &promState{}
			if s, err = st.split(res, 1, maxSecretData); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(res.Config))/(1<<20), "config-MiB")
		b.ReportMetric(float64(s.compressedSize())/(1<<20), "gzip-MiB")
		b.ReportMetric(float64(len(s.gz)), "secrets")
	})
	b.Run("one-change/monitors=100000", func(b *testing.B) {
		st := &promState{}
		s, err := st.split(res, 1, maxSecretData)
		if err != nil {
			b.Fatal(err)
		}
		parts := len(s.gz)
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			sms[i%n].Spec.Endpoints[0].Interval = monitoringv1.Duration(fmt.Sprintf("%ds", 31+i%20))
			sms[i%n].Generation++
			r, err := g.Generate(in)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if s, err = st.split(r, parts, maxSecretData); err != nil {
				b.Fatal(err)
			}
			if len(s.gz) != parts {
				b.Fatalf("%d parts after one change, was %d", len(s.gz), parts)
			}
		}
	})
}

// BenchmarkOneChangeGenerateAndSplit is a one-monitor change at 100,000 ServiceMonitors
// as the controller makes it: generate (pieces, as the controller's generator) and
// split over the Secrets, both timed.
//
//	go test -run '^$' -bench OneChangeGenerateAndSplit -benchtime 20x ./pkg/prometheus/promctrl
func BenchmarkOneChangeGenerateAndSplit(b *testing.B) {
	const n = 100_000
	sms := splitBenchMonitors(n)
	g := promcfg.NewGenerator()
	g.Pieces = true
	in := promcfg.Input{Prometheus: promserver.Of(prom("p")), Monitors: monitorkind.Set{ServiceMonitors: sms}}
	res, err := g.Generate(in)
	if err != nil {
		b.Fatal(err)
	}
	st := &promState{}
	s, err := st.split(res, 1, maxSecretData)
	if err != nil {
		b.Fatal(err)
	}
	parts := len(s.gz)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		sms[i%n].Spec.Endpoints[0].Interval = monitoringv1.Duration(fmt.Sprintf("%ds", 31+i%20))
		sms[i%n].Generation++
		r, err := g.Generate(in)
		if err != nil {
			b.Fatal(err)
		}
		if s, err = st.split(r, parts, maxSecretData); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(parts), "secrets")
	b.ReportMetric(float64(res.Size)/(1<<20), "config-MiB")
}

// BenchmarkColdGenerateAndSplit is the first generation at 20,000 ServiceMonitors and its
// split, as the controller makes them after its caches synced: monitors made from one
// template (each its own Service, a namespace out of 1,000, as the scale harness's) and
// monitors each with a rule of its own (splitBenchMonitors), whose jobs all differ.
//
//	go test -run '^$' -bench ColdGenerateAndSplit -benchtime 5x ./pkg/prometheus/promctrl
func BenchmarkColdGenerateAndSplit(b *testing.B) {
	const n = 20_000
	alike := make([]*monitoringv1.ServiceMonitor, n)
	for i := range alike {
		alike[i] = &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("sm-%05d", i), Namespace: fmt.Sprintf("bench-%03d", i%1000), UID: types.UID(fmt.Sprint(i)), Generation: 1},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("sm-%05d", i)}},
				Endpoints: []monitoringv1.Endpoint{{Port: "web", Interval: "30s"}},
			},
		}
	}
	for _, c := range []struct {
		name string
		sms  []*monitoringv1.ServiceMonitor
	}{{"alike", alike}, {"distinct", splitBenchMonitors(n)}} {
		b.Run(c.name, func(b *testing.B) {
			in := promcfg.Input{Prometheus: promserver.Of(prom("p")), Monitors: monitorkind.Set{ServiceMonitors: c.sms}}
			b.ReportAllocs()
			for range b.N {
				g := promcfg.NewGenerator()
				g.Pieces = true
				res, err := g.Generate(in)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := (&promState{}).split(res, 1, maxSecretData); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
