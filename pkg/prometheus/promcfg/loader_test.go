package promcfg_test

import (
	"fmt"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	monitoringv1alpha1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1alpha1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestLoaderVerdictsPerGenerator: each generator remembers its own loader verdicts. A
// fresh generator loads what another one already loaded; a warm one loads nothing again
// for unchanged input.
func TestLoaderVerdictsPerGenerator(t *testing.T) {
	t.Parallel()
	in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: []*SM{sm("a"), sm("b", ep(func(e *EP) { e.Interval = "10s" }))}}, Assets: testAssets()}
	first := promcfg.NewGenerator()
	if _, err := first.Generate(in); err != nil {
		t.Fatal(err)
	}
	n := first.LoadsForTest()
	if n == 0 {
		t.Fatal("the first generation loaded nothing")
	}
	if _, err := first.Generate(in); err != nil {
		t.Fatal(err)
	}
	if got := first.LoadsForTest(); got != n {
		t.Errorf("regenerating unchanged input loaded %d more texts", got-n)
	}
	second := promcfg.NewGenerator()
	if _, err := second.Generate(in); err != nil {
		t.Fatal(err)
	}
	if got := second.LoadsForTest(); got != n {
		t.Errorf("a fresh generator loaded %d texts, want the %d the first one loaded: verdicts are shared", got, n)
	}
}

// TestEntriesFollowTheMonitors: monitors found at their old positions (the fast path),
// moved, removed, replaced by another at the same position and added again all give what a fresh generator gives, and the
// generator keeps entries for the current monitors only.
func TestEntriesFollowTheMonitors(t *testing.T) {
	t.Parallel()
	// Every object has resourceVersion 1: only its key tells d from c.
	a, b, c, d := sm("a"), sm("b"), sm("c"), sm("d")
	g := promcfg.NewGenerator()
	g.Pieces = true
	for step, mons := range [][]*SM{{a, b, c}, {a, b, c}, {a, c}, {a, b, c}, {c, a}, {a, b, c}, {a, b, d}, {}} {
		in := promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ServiceMonitors: mons}, Assets: testAssets()}
		got, want := generateBeside(t, g, in)
		if string(got.Bytes()) != string(want.Config) {
			t.Fatalf("step %d: config differs from a fresh generator's:\n%s\nwant\n%s", step, got.Bytes(), want.Config)
		}
		if n := g.EntriesForTest(); n != len(mons) {
			t.Fatalf("step %d: %d entries kept for %d monitors", step, n, len(mons))
		}
	}
}

// TestBatchedLoads: a cold generation loads the monitors' jobs a batch at a time, and a
// batch holding monitors only the loader refuses still gives each monitor the verdict and
// message it gets alone.
func TestBatchedLoads(t *testing.T) {
	t.Parallel()
	const n = 2*promcfg.LoadBatch + 3
	// Legacy names with UTF-8 escaping: only Prometheus's loader refuses it.
	bad := map[string]bool{"m02": true, "m03": true, fmt.Sprintf("m%02d", promcfg.LoadBatch+1): true}
	var good, mixed []*monitoringv1alpha1.ScrapeConfig
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("m%02d", i)
		// Targets of their own: jobs of one shape would be left out of later loads (ADR 40).
		target := func(s *monitoringv1alpha1.ScrapeConfig) {
			s.Spec.StaticConfigs = []monitoringv1alpha1.StaticConfig{{Targets: []monitoringv1alpha1.Target{monitoringv1alpha1.Target(fmt.Sprintf("a:%d", i+1))}}}
		}
		good = append(good, scrapeConfig(name, target))
		if bad[name] {
			mixed = append(mixed, scrapeConfig(name, target, func(s *monitoringv1alpha1.ScrapeConfig) {
				s.Spec.NameValidationScheme = ptr(monitoringv1.LegacyNameValidationScheme)
				s.Spec.NameEscapingScheme = ptr(monitoringv1.AllowUTF8NameEscapingScheme)
			}))
		} else {
			mixed = append(mixed, scrapeConfig(name, target))
		}
	}
	in := func(scs ...*monitoringv1alpha1.ScrapeConfig) promcfg.Input {
		return promcfg.Input{Prometheus: serverOf(prom()), Monitors: monitorkind.Set{ScrapeConfigs: scs}, Assets: testAssets()}
	}

	g := promcfg.NewGenerator()
	if _, err := g.Generate(in(good...)); err != nil {
		t.Fatal(err)
	}
	if got, want := g.LoadsForTest(), 1+3; got != want { // the header, then three batches
		t.Errorf("a cold generation of %d monitors made %d loads, want %d", n, got, want)
	}

	res, err := promcfg.NewGenerator().Generate(in(mixed...))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range res.Verdicts {
		job := "job_name: scrapeConfig/default/" + v.Name + "\n"
		if !bad[v.Name] {
			if !v.Used() || !strings.Contains(string(res.Config), job) {
				t.Errorf("%s rejected beside refused monitors in its batch: %s", v.Name, v.Message)
			}
			continue
		}
		alone, err := promcfg.NewGenerator().Generate(in(mixed[i]))
		if err != nil {
			t.Fatal(err)
		}
		want := alone.Verdicts[0]
		if v.Used() || strings.Contains(string(res.Config), job) || !strings.Contains(v.Message, "config loader") {
			t.Errorf("%s not refused by the loader in a batch: %s", v.Name, v.Message)
		}
		if v.Name != want.Name || v.Reason != want.Reason || v.Message != want.Message {
			t.Errorf("%s in a batch: %s %q; alone: %s %q", v.Name, v.Reason, v.Message, want.Reason, want.Message)
		}
	}
	if len(res.Verdicts) != n {
		t.Errorf("%d verdicts for %d monitors", len(res.Verdicts), n)
	}
	if err := promcfgValidate(res.Config); err != nil {
		t.Errorf("config does not load: %v", err)
	}
}
