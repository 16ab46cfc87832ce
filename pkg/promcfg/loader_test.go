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
