package promcfg_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"runtime"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// benchMonitors builds n ServiceMonitors with three endpoints each, spread over 50
// namespaces, with typical settings (interval, path, relabelings, metric relabelings).
func benchMonitors(n int) []*monitoringv1.ServiceMonitor {
	out := make([]*monitoringv1.ServiceMonitor, n)
	for i := range out {
		out[i] = &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("svc-%05d", i), Namespace: fmt.Sprintf("ns-%02d", i%50), UID: types.UID(fmt.Sprint(i)), Generation: 1, ResourceVersion: fmt.Sprint(i + 1)},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector: metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("svc-%05d", i)}},
				Endpoints: []monitoringv1.Endpoint{
					{Port: "web", Interval: "30s"},
					{Port: "metrics", Path: "/internal/metrics", RelabelConfigs: []monitoringv1.RelabelConfig{rl("replace", []string{"__meta_kubernetes_pod_node_name"}, "", "node", "")}},
					{Port: "admin", MetricRelabelConfigs: []monitoringv1.RelabelConfig{rl("drop", []string{"__name__"}, "go_.*", "", "")}},
				},
			},
		}
	}
	return out
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Len()
}

// BenchmarkGenerate measures a cold generation (render and validate every monitor) and a
// warm one after a single monitor changed (what the controller does on one event).
func BenchmarkGenerate(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		sms := benchMonitors(n)
		p := prom()
		in := promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: testAssets()}
		b.Run(fmt.Sprintf("cold/monitors=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var res *promcfg.Result
			for i := 0; i < b.N; i++ {
				var err error
				if res, err = promcfg.NewGenerator().Generate(in); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(len(res.Config)), "config-bytes")
			b.ReportMetric(float64(gzipSize(res.Config)), "gzip-bytes")
		})
		for _, reuse := range []bool{false, true} {
			name := fmt.Sprintf("one-change/monitors=%d", n)
			if reuse {
				name = fmt.Sprintf("one-change-pieces/monitors=%d", n)
			}
			b.Run(name, func(b *testing.B) {
				g := promcfg.NewGenerator()
				g.Pieces = reuse
				if _, err := g.Generate(in); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					// A changed object has a new resourceVersion, as the informer's objects do.
					sms[i%n].Generation++
					sms[i%n].ResourceVersion = fmt.Sprint(n + i + 1)
					if _, err := g.Generate(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkRetainedMemory measures what a generator and its result keep after a cold
// generation (retained-B, and per byte of configuration), and how much was allocated on
// the way (B/op): for many ordinary monitors, and for one ServiceMonitor of 40,000
// endpoints, which the per-object limits reject before rendering.
func BenchmarkRetainedMemory(b *testing.B) {
	for _, c := range []struct {
		name string
		sms  []*monitoringv1.ServiceMonitor
	}{
		{"monitors=10000", benchMonitors(10000)},
		{"one-monitor-40000-endpoints", []*monitoringv1.ServiceMonitor{sm("huge", func(s *SM) { s.Spec.Endpoints = endpoints(40_000) })}},
	} {
		b.Run(c.name, func(b *testing.B) {
			in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: c.sms}, Assets: testAssets()}
			b.ReportAllocs()
			var retained uint64
			var config int
			for i := 0; i < b.N; i++ {
				retained, _ = retainedHeap(func() any {
					g := promcfg.NewGenerator()
					res, err := g.Generate(in)
					if err != nil {
						b.Fatal(err)
					}
					config = len(res.Config)
					return []any{g, res}
				})
			}
			runtime.KeepAlive(in)
			b.ReportMetric(float64(config), "config-bytes")
			b.ReportMetric(float64(retained), "retained-B")
			b.ReportMetric(float64(retained)/float64(config), "retained/config")
		})
	}
}
