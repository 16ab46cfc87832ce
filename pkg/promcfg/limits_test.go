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

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/promcfg"
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
	in := promcfg.Input{Prometheus: prom(), ServiceMonitors: append(sms, huge), Assets: testAssets()}
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
