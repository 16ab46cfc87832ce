package promcfg_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/lookout-operator/lookout/pkg/monitorkind"
	"github.com/lookout-operator/lookout/pkg/prometheus/promcfg"
)

// TestPrewarm: monitors prewarmed before the first Generate are used by it as they are
// when nothing they were rendered from changed, rendered again when something did (the
// monitor's spec, the settings, the global section), never prewarmed when they read a
// Secret, and swept when not selected; the configuration is the one a fresh generator
// writes in every case.
func TestPrewarm(t *testing.T) {
	const n = 40
	mons := func() []*monitoringv1.ServiceMonitor {
		out := make([]*monitoringv1.ServiceMonitor, n)
		for i := range out {
			out[i] = sm(fmt.Sprintf("svc-%02d", i), func(s *monitoringv1.ServiceMonitor) {
				s.Namespace = fmt.Sprintf("ns-%d", i%4)
				s.UID = types.UID(fmt.Sprint("uid-", i))
			})
		}
		return out
	}
	withAuth := ep(func(e *monitoringv1.Endpoint) {
		e.BasicAuth = &monitoringv1.BasicAuth{Username: secretKey("auth", "user"), Password: secretKey("auth", "password")}
	})
	type change struct {
		name string
		// warm is what the monitors and the Prometheus look like when prewarmed; gen
		// changes them before Generate. want is which monitors Generate must reuse.
		warm func(p *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor)
		gen  func(p *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor)
		want func(i int) bool
	}
	none := func(*monitoringv1.Prometheus, []*monitoringv1.ServiceMonitor) {}
	all := func(int) bool { return true }
	for _, c := range []change{
		{name: "unchanged", warm: none, gen: none, want: all},
		{name: "one monitor's spec changed", warm: none, gen: func(_ *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor) {
			sms[3].Spec.Endpoints[0].Interval = "17s"
			sms[3].Generation++
		}, want: func(i int) bool { return i != 3 }},
		{name: "one monitor replaced by another of the same name", warm: none, gen: func(_ *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor) {
			sms[5].UID = "another"
			sms[5].Spec.Endpoints[0].Port = "other"
		}, want: func(i int) bool { return i != 5 }},
		{name: "settings changed", warm: none, gen: func(p *monitoringv1.Prometheus, _ []*monitoringv1.ServiceMonitor) {
			p.Spec.EnforcedNamespaceLabel = "tenant"
			p.ResourceVersion = "2"
		}, want: func(int) bool { return false }},
		{name: "global section changed", warm: none, gen: func(p *monitoringv1.Prometheus, _ []*monitoringv1.ServiceMonitor) {
			p.Spec.ScrapeInterval = "15s"
			p.ResourceVersion = "2"
		}, want: func(int) bool { return false }},
		{name: "monitors reading a Secret", warm: func(_ *monitoringv1.Prometheus, sms []*monitoringv1.ServiceMonitor) {
			withAuth(sms[0])
			withAuth(sms[7])
		}, gen: none, want: func(i int) bool { return i != 0 && i != 7 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := prom(func(p *monitoringv1.Prometheus) { p.UID, p.ResourceVersion = "p", "1" })
			sms := mons()
			for _, s := range sms {
				s.Namespace = "default" // the Secret "auth" of testAssets is in default
			}
			c.warm(p, sms)
			g := promcfg.NewGenerator()
			g.Pieces = true
			warmed := map[int]any{}
			for i, s := range sms {
				kept := g.Prewarm(serverOf(p), monitorkind.ServiceMonitor.Name, s)
				if s.Spec.Endpoints[0].BasicAuth != nil {
					if kept {
						t.Errorf("%s reads a Secret but was prewarmed", s.Name)
					}
					continue
				}
				if !kept {
					t.Fatalf("%s was not prewarmed", s.Name)
				}
				warmed[i] = g.EntryForTest(monitorkind.ServiceMonitor.Name, s.Namespace, s.Name)
			}
			// A monitor prewarmed but not selected is swept by the first generation.
			extra := sm("not-selected")
			if !g.Prewarm(serverOf(p), monitorkind.ServiceMonitor.Name, extra) {
				t.Fatal("not-selected was not prewarmed")
			}
			if again := g.Prewarm(serverOf(p), monitorkind.ServiceMonitor.Name, sms[1]); again {
				t.Error("a monitor was prewarmed twice")
			}
			c.gen(p, sms)
			in := promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: sms}, Assets: testAssets()}
			got, fresh := generateBeside(t, g, in)
			if !bytes.Equal(got.Bytes(), fresh.Bytes()) {
				t.Fatalf("the configuration after prewarming differs from a fresh generator's:\n%s\n---\n%s", got.Bytes(), fresh.Bytes())
			}
			if !reflect.DeepEqual(got.Verdicts, fresh.Verdicts) || !reflect.DeepEqual(got.Warnings, fresh.Warnings) || !reflect.DeepEqual(got.TLSAssets, fresh.TLSAssets) || !reflect.DeepEqual(got.Dependencies, fresh.Dependencies) {
				t.Fatalf("verdicts, warnings, TLS assets or dependencies differ from a fresh generator's")
			}
			for i, s := range sms {
				e := g.EntryForTest(monitorkind.ServiceMonitor.Name, s.Namespace, s.Name)
				reused := warmed[i] != nil && e == warmed[i]
				if reused != c.want(i) {
					t.Errorf("%s: prewarmed rendering reused %v, want %v", s.Name, reused, c.want(i))
				}
			}
			if g.EntryForTest(monitorkind.ServiceMonitor.Name, extra.Namespace, extra.Name) != nil || g.EntriesForTest() != n {
				t.Errorf("%d renderings kept after the first generation, want %d (the one not selected swept)", g.EntriesForTest(), n)
			}
			if g.Prewarm(serverOf(p), monitorkind.ServiceMonitor.Name, sm("late")) {
				t.Error("a monitor was prewarmed after the first generation")
			}
		})
	}
}

// TestPrewarmInvalid: a Prometheus whose settings do not load prewarms nothing, and an
// invalid monitor's prewarmed verdict is the one Generate gives.
func TestPrewarmInvalid(t *testing.T) {
	g := promcfg.NewGenerator()
	bad := prom(func(p *monitoringv1.Prometheus) { p.Spec.ScrapeInterval = "-1s" })
	if g.Prewarm(serverOf(bad), monitorkind.ServiceMonitor.Name, sm("a")) {
		t.Error("prewarmed for a Prometheus with an invalid scrape interval")
	}
	p := prom(func(p *monitoringv1.Prometheus) { p.UID, p.ResourceVersion = "p", "1" })
	invalid := sm("invalid", ep(func(e *monitoringv1.Endpoint) { e.Interval = "often" }))
	g = promcfg.NewGenerator()
	if !g.Prewarm(serverOf(p), monitorkind.ServiceMonitor.Name, invalid) {
		t.Fatal("an invalid monitor's verdict was not prewarmed")
	}
	in := promcfg.Input{Prometheus: serverOf(p), Monitors: monitorkind.Set{ServiceMonitors: []*monitoringv1.ServiceMonitor{invalid, sm("valid")}}}
	got, fresh := generateBeside(t, g, in)
	if !bytes.Equal(got.Bytes(), fresh.Bytes()) || !reflect.DeepEqual(got.Verdicts, fresh.Verdicts) {
		t.Fatalf("after prewarming an invalid monitor: %v, want %v", got.Verdicts, fresh.Verdicts)
	}
	if got.Verdicts[0].Reason != "InvalidConfiguration" {
		t.Fatalf("verdict %+v, want InvalidConfiguration", got.Verdicts[0])
	}
}
