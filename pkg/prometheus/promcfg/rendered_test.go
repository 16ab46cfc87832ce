package promcfg_test

import (
	"fmt"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestRenderedCounts: a generation says how many monitors it was given and how many it
// rendered (the rest came from its cache): all at first, none when nothing changed, the
// changed one after a change, all again after a settings change.
func TestRenderedCounts(t *testing.T) {
	sms := make([]*monitoringv1.ServiceMonitor, 12)
	for i := range sms {
		sms[i] = sm(fmt.Sprintf("svc-%02d", i))
	}
	p := prom()
	g := promcfg.NewGenerator()
	gen := func(want int) {
		t.Helper()
		res, err := g.Generate(promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: sms}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Monitors != len(sms) || res.Rendered != want {
			t.Fatalf("monitors %d, rendered %d; want %d, %d", res.Monitors, res.Rendered, len(sms), want)
		}
	}
	gen(len(sms))
	gen(0)
	c := sms[4].DeepCopy()
	c.Spec.Endpoints[0].Interval = "17s"
	c.Generation++
	c.ResourceVersion = "2"
	sms[4] = c
	gen(1)
	p.Spec.EnforcedNamespaceLabel = "tenant"
	gen(len(sms))
}
