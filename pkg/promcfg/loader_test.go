package promcfg_test

import (
	"testing"

	"github.com/lookout-operator/lookout/pkg/promcfg"
)

// TestLoaderVerdictsPerGenerator: each generator remembers its own loader verdicts. A
// fresh generator loads what another one already loaded; a warm one loads nothing again
// for unchanged input.
func TestLoaderVerdictsPerGenerator(t *testing.T) {
	t.Parallel()
	in := promcfg.Input{Prometheus: prom(), ServiceMonitors: []*SM{sm("a"), sm("b", ep(func(e *EP) { e.Interval = "10s" }))}, Assets: testAssets()}
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
		in := promcfg.Input{Prometheus: prom(), ServiceMonitors: mons, Assets: testAssets()}
		got, want := generateBeside(t, g, in)
		if string(got.Bytes()) != string(want.Config) {
			t.Fatalf("step %d: config differs from a fresh generator's:\n%s\nwant\n%s", step, got.Bytes(), want.Config)
		}
		if n := g.EntriesForTest(); n != len(mons) {
			t.Fatalf("step %d: %d entries kept for %d monitors", step, n, len(mons))
		}
	}
}
