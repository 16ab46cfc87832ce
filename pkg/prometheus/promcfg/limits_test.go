package promcfg_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// endpoints returns n ServiceMonitor endpoints, each on its own port.
func endpoints(n int) []monitoringv1.Endpoint {
	out := make([]monitoringv1.Endpoint, n)
	for i := range out {
		out[i] = monitoringv1.Endpoint{Port: fmt.Sprintf("p%d", i)}
	}
	return out
}

// staticTargets returns n distinct host:port targets.
func staticTargets(n int) []monitoringv1alpha1.Target {
	out := make([]monitoringv1alpha1.Target, n)
	for i := range out {
		out[i] = monitoringv1alpha1.Target(fmt.Sprintf("10.%d.%d.%d:9100", i>>16, (i>>8)&255, i&255))
	}
	return out
}

// TestObjectLimits: one object cannot make the configuration as large as it likes; at the
// limit it is still accepted.
func TestObjectLimits(t *testing.T) {
	cases := []struct {
		name string
		in   goldenCase
		want string // "" for accepted
	}{
		{name: "endpoints at the limit", in: goldenCase{sms: []*SM{sm("big", func(s *SM) { s.Spec.Endpoints = endpoints(promcfg.MaxJobsPerObject) })}}},
		{name: "endpoints over the limit", in: goldenCase{sms: []*SM{sm("big", func(s *SM) { s.Spec.Endpoints = endpoints(promcfg.MaxJobsPerObject + 1) })}},
			want: "endpoints: 1001 endpoints, more than the 1000 one object may have"},
		{name: "pod metrics endpoints over the limit", in: goldenCase{pms: []*PM{pm("big", func(p *PM) {
			p.Spec.PodMetricsEndpoints = make([]monitoringv1.PodMetricsEndpoint, promcfg.MaxJobsPerObject+1)
			for i := range p.Spec.PodMetricsEndpoints {
				p.Spec.PodMetricsEndpoints[i].Port = ptr(fmt.Sprintf("p%d", i))
			}
		})}}, want: "podMetricsEndpoints: 1001 endpoints, more than the 1000 one object may have"},
		{name: "static targets over the byte limit", in: goldenCase{scs: []*monitoringv1alpha1.ScrapeConfig{scrapeConfig("big", func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: staticTargets(120_000)}}
		})}}, want: fmt.Sprintf("the jobs render to more than %d bytes", promcfg.MaxObjectBytes)},
		{name: "probe targets over the byte limit", in: goldenCase{probes: []*monitoringv1.Probe{probe("big", func(p *monitoringv1.Probe) {
			targets := staticTargets(120_000)
			p.Spec.Targets.StaticConfig.Targets = make([]string, len(targets))
			for i, tg := range targets {
				p.Spec.Targets.StaticConfig.Targets[i] = string(tg)
			}
		})}}, want: fmt.Sprintf("the jobs render to more than %d bytes", promcfg.MaxObjectBytes)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			in := c.in
			in.prom = prom()
			in.sms = append(in.sms, sm("good"))
			res, err := generateAll(in)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range res.Verdicts {
				switch {
				case v.Name == "good" && !v.Used():
					t.Errorf("good monitor rejected: %s", v.Message)
				case v.Name == "big" && c.want == "" && !v.Used():
					t.Errorf("rejected: %s", v.Message)
				case v.Name == "big" && c.want != "" && (v.Used() || !strings.Contains(v.Message, c.want)):
					t.Errorf("verdict %s %q, want rejected with …%s…", v.Reason, v.Message, c.want)
				}
			}
			if c.want != "" && len(res.Config) > 64<<10 {
				t.Errorf("the rejected object still takes %d bytes of configuration", len(res.Config))
			}
		})
	}
}

// retainedHeap returns how many heap bytes stay reachable while keep is alive, after
// build made it.
func retainedHeap(build func() any) (uint64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	return after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc), keep
}

// TestMemoryProportionalToConfig: what a generator keeps after a generation (its cache of
// rendered jobs) and the result it returns are proportional to the configuration: the
// cache holds each monitor's text once and the result holds the file. An object over the
// limits costs next to nothing. Not parallel: it measures the heap.
func TestMemoryProportionalToConfig(t *testing.T) {
	sms := benchMonitors(1000)
	huge := sm("huge", func(s *SM) { s.Spec.Endpoints = endpoints(40_000) })
	in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: append(sms, huge)}, Assets: testAssets()}
	var config int
	retained, keep := retainedHeap(func() any {
		g := promcfg.NewGenerator()
		res, err := g.Generate(in)
		if err != nil {
			t.Fatal(err)
		}
		config = len(res.Config)
		return []any{g, res}
	})
	runtime.KeepAlive(in) // the inputs were there before; only what Generate made counts
	res := keep.([]any)[1].(*promcfg.Result)
	if v := res.Verdicts[len(res.Verdicts)-1]; v.Used() {
		t.Fatal("the 40,000-endpoint monitor was accepted")
	}
	ratio := float64(retained) / float64(config)
	t.Logf("config %d bytes, retained %d bytes (%.2f× the config)", config, retained, ratio)
	if ratio > 3 {
		t.Errorf("the generator and its result keep %d bytes, %.1f times the %d-byte configuration", retained, ratio, config)
	}
}

// TestCompressedSizeLimit: text gzip cannot squeeze lets one object within MaxObjectBytes
// fill the config Secret (about 1 MiB gzipped) alone; it is rejected, and a larger object
// that compresses as configuration does is not.
func TestCompressedSizeLimit(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 1400*1000)
	for i := range random {
		random[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/"[r.IntN(64)]
	}
	withReplacement := func(name, repl string) *SM {
		return sm(name, func(s *SM) {
			s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{{TargetLabel: "big", Replacement: &repl}}
		})
	}
	msg, _ := judge(t, prom(), withReplacement("random", string(random)), testAssets())
	if want := fmt.Sprintf("more than the %d bytes of compressed configuration one object may add", promcfg.MaxObjectCompressedBytes); !strings.Contains(msg, want) {
		t.Errorf("incompressible object: %q, want …%s…", msg, want)
	}
	msg, res := judge(t, prom(), withReplacement("repeated", strings.Repeat("x", 1400*1000)), testAssets())
	if msg != "" {
		t.Errorf("compressible object of the same size rejected: %s", msg)
	}
	if n := gzipLen(t, res.Config); n > promcfg.MaxObjectCompressedBytes {
		t.Errorf("the accepted configuration gzips to %d bytes", n)
	}
}

func gzipLen(t *testing.T, b []byte) int {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := io.Copy(w, bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Len()
}

// TestNamespaceBound: the monitors of one namespace cannot add more than
// MaxNamespaceBytes together; the ones written after the bound is reached are refused
// with a message that says so, a smaller one that still fits and other namespaces' are
// kept, and a refused one comes back when room is made.
func TestNamespaceBound(t *testing.T) {
	t.Parallel()
	big := func(name string) *SM {
		return sm(name, func(s *SM) { s.Namespace = "team-a"; s.Spec.Endpoints = endpoints(300) })
	}
	small := sm("a4", func(s *SM) { s.Namespace = "team-a" })
	other := sm("b1", func(s *SM) { s.Namespace = "team-b"; s.Spec.Endpoints = endpoints(300) })
	g := promcfg.NewGenerator()
	if g.MaxNamespaceBytes != promcfg.DefaultMaxNamespaceBytes {
		t.Fatalf("default bound %d", g.MaxNamespaceBytes)
	}
	one, err := g.Generate(promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: []*SM{big("a1")}}})
	if err != nil {
		t.Fatal(err)
	}
	empty, err := promcfg.NewGenerator().Generate(promcfg.Input{Prometheus: serverOf(prom())})
	if err != nil {
		t.Fatal(err)
	}
	each := one.Size - empty.Size
	g.MaxNamespaceBytes = 2*each + each/2 // two big ones and the small one fit, not three big
	res, err := g.Generate(promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: []*SM{big("a1"), big("a2"), big("a3"), small, other}}})
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, v := range res.Verdicts {
		used[v.Name] = v.Message
		if !v.Used() && v.Name != "a3" {
			t.Errorf("%s refused: %s", v.Name, v.Message)
		}
	}
	// each counts the "scrape_configs:" key too, which is no monitor's.
	jobs := each - len("scrape_configs:\n")
	want := fmt.Sprintf("the jobs render to %d bytes, and the monitors of namespace team-a written before this one already add %d: together more than the %d bytes of configuration one namespace may add (the operator's --max-namespace-config-bytes)", jobs, 2*jobs, g.MaxNamespaceBytes)
	if used["a3"] != want {
		t.Errorf("a3's verdict %q, want it to say %q", used["a3"], want)
	}
	if bytes.Contains(res.Bytes(), []byte("serviceMonitor/team-a/a3/")) {
		t.Error("the refused monitor's jobs are in the configuration")
	}
	for _, name := range []string{"team-a/a1/", "team-a/a4/", "team-b/b1/"} {
		if !bytes.Contains(res.Bytes(), []byte("serviceMonitor/"+name)) {
			t.Errorf("%s is missing from the configuration", name)
		}
	}

	// a1 goes: a3 fits.
	res, err = g.Generate(promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: []*SM{big("a2"), big("a3"), small, other}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Verdicts {
		if !v.Used() {
			t.Errorf("%s refused after room was made: %s", v.Name, v.Message)
		}
	}
}

// BenchmarkHostileNamespace is the review's attack: 30 ServiceMonitors of 999 endpoints
// in one namespace (42 MB of jobs without a bound). It reports the configuration's size
// and the peak heap of one cold generation, sampled every millisecond.
func BenchmarkHostileNamespace(b *testing.B) {
	var sms []*SM
	for i := range 30 {
		sms = append(sms, sm(fmt.Sprintf("m%02d", i), func(s *SM) { s.Namespace = "tenant"; s.Spec.Endpoints = endpoints(999) }))
	}
	for _, bound := range []int{0, promcfg.DefaultMaxNamespaceBytes} {
		b.Run(fmt.Sprintf("bound=%d", bound), func(b *testing.B) {
			var peak uint64
			var size int
			for range b.N {
				runtime.GC()
				stop := sampleHeap(&peak)
				g := promcfg.NewGenerator()
				g.MaxNamespaceBytes = bound
				res, err := g.Generate(promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: sms}})
				stop()
				if err != nil {
					b.Fatal(err)
				}
				size = res.Size
			}
			b.ReportMetric(float64(size)/(1<<20), "config-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// sampleHeap records the largest heap in use into peak until stop is called.
func sampleHeap(peak *uint64) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		var ms runtime.MemStats
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&ms)
			*peak = max(*peak, ms.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
