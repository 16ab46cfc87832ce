//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/explain"
)

// TestExplain: explain, against the live control plane with the main operator's selection
// flags, names the cause for a ServiceMonitor with a wrong port name, one whose Service
// lacks a selected label and one in a namespace the Prometheus does not select; for the
// healthy one, the targets it says are kept are exactly the real Prometheus's active
// targets, with the same scrape URLs and labels.
func TestExplain(t *testing.T) {
	sc := newScenario(t, 3*time.Minute)
	defer sc.done()
	ctx := context.Background()

	app := startSampleApp(t, sc.ns, "sample", allocateIPs(2))
	other := sc.ns + "-other"
	if err := createNamespace(ctx, other, nil); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, sc.prometheus(sc.ns, "main"))
	pd := sc.runPods(sc.ns, statefulSetName("main", 0))[0]
	prom := promAPI{base: pd.url("web")}
	monitor := func(ns, name string, sel map[string]string, port string) *monitoringv1.ServiceMonitor {
		return &monitoringv1.ServiceMonitor{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: sc.labels()},
			Spec: monitoringv1.ServiceMonitorSpec{
				Selector:  metav1.LabelSelector{MatchLabels: sel},
				Endpoints: []monitoringv1.Endpoint{{Port: port, Interval: "1s"}},
			},
		}
	}
	mustCreate(t,
		monitor(sc.ns, "healthy", map[string]string{"app": app.name}, samplePortName),
		monitor(sc.ns, "wrongport", map[string]string{"app": app.name}, "grpc"),
		monitor(sc.ns, "tiered", map[string]string{"app": app.name, "tier": "backend"}, samplePortName),
		monitor(other, "elsewhere", map[string]string{"app": app.name}, samplePortName),
	)
	instances, err := labels.Parse("!" + operatorLabel) // the main operator's flag
	if err != nil {
		t.Fatal(err)
	}
	opts := explain.Options{Prometheus: sc.ns + "/main", InstanceSelector: instances, InstanceSelectorText: "!" + operatorLabel, Timeout: 30 * time.Second}
	run := func(ns, name string) *explain.Report {
		t.Helper()
		subject := explain.Subject{Kind: explain.KindServiceMonitor, Namespace: ns, Name: name}
		start := time.Now()
		in, err := explain.Live(ctx, s.env.Config, subject, opts)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := explain.Explain(ctx, in, subject, opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("explain ServiceMonitor %s/%s took %s", ns, name, time.Since(start).Round(time.Millisecond))
		return rep
	}
	drops := func(rep *explain.Report) []string {
		var out []string
		for _, m := range rep.Instances[0].Monitors {
			for _, ep := range m.Endpoints {
				for _, tg := range ep.Targets {
					if tg.Drop != nil && tg.Service == app.name {
						out = append(out, fmt.Sprintf("relabel_configs[%d]: %s", tg.Drop.Rule, tg.Drop.Cause))
					}
				}
			}
		}
		return out
	}

	// The healthy monitor: what explain keeps is what Prometheus scrapes.
	pool := fmt.Sprintf("serviceMonitor/%s/healthy/0", sc.ns)
	sc.step("the healthy ServiceMonitor's targets are active in Prometheus", 60*time.Second, func() error {
		ts, err := prom.activeTargets(pool)
		if err != nil {
			return err
		}
		if len(ts) != 2 {
			return fmt.Errorf("%d active targets, want 2", len(ts))
		}
		return nil
	})
	rep := run(sc.ns, "healthy")
	if !rep.OK {
		t.Fatalf("healthy: not OK: %+v", rep)
	}
	active, err := prom.activeTargets(pool)
	if err != nil {
		t.Fatal(err)
	}
	var want, got []string
	for _, tg := range active {
		want = append(want, tg.ScrapeURL+" "+fmt.Sprint(tg.Labels))
	}
	for _, tg := range rep.Instances[0].Monitors[0].Endpoints[0].Targets {
		if tg.Kept {
			got = append(got, tg.URL+" "+fmt.Sprint(tg.Labels))
		}
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("explain keeps\n%s\nPrometheus's active targets are\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	rep = run(sc.ns, "wrongport")
	wantCause := fmt.Sprintf(`relabel_configs[2]: port name is %q; the endpoint asks for "grpc"`, samplePortName)
	if d := drops(rep); rep.OK || len(d) != 2 || d[0] != wantCause {
		t.Errorf("wrongport: ok %v, drops %q, want twice %q", rep.OK, d, wantCause)
	}

	rep = run(sc.ns, "tiered")
	wantCause = `relabel_configs[2]: the Service has no label tier; the selector wants tier=backend`
	if d := drops(rep); rep.OK || len(d) != 2 || d[0] != wantCause {
		t.Errorf("tiered: ok %v, drops %q, want twice %q", rep.OK, d, wantCause)
	}

	rep = run(other, "elsewhere")
	m := rep.Instances[0].Monitors[0]
	wantMsg := fmt.Sprintf(`the ServiceMonitor namespace selector is unset, so only namespace %q is selected`, sc.ns)
	if rep.OK || m.NamespaceSelection.OK || m.NamespaceSelection.Message != wantMsg {
		t.Errorf("elsewhere: ok %v, namespace step %+v, want %q", rep.OK, m.NamespaceSelection, wantMsg)
	}
}
