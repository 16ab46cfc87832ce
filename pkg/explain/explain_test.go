package explain

import (
	"bytes"
	"context"
	"testing"
	"time"

	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/lookout-operator/lookout/pkg/render"
)

// run explains subject offline from the testdata files.
func run(t *testing.T, subject Subject, opts Options, files ...string) *Report {
	t.Helper()
	if len(files) == 0 {
		files = []string{"testdata/cluster.yaml"}
	}
	objs, err := render.Load("default", files...)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Offline(objs, subject)
	if err != nil {
		t.Fatal(err)
	}
	if opts.Timeout == 0 {
		opts.Timeout = 20 * time.Second
	}
	rep, err := Explain(context.Background(), in, subject, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteText(&b, rep, Style{})
	t.Logf("\n%s", b.String())
	return rep
}

func sm(ns, name string) Subject { return Subject{Kind: KindServiceMonitor, Namespace: ns, Name: name} }

// only returns the one monitor of the one instance.
func only(t *testing.T, r *Report) Monitor {
	t.Helper()
	if len(r.Instances) != 1 || len(r.Instances[0].Monitors) != 1 {
		t.Fatalf("want one instance with one monitor, got %+v", r.Instances)
	}
	return r.Instances[0].Monitors[0]
}

func wantStep(t *testing.T, what string, s Step, ok bool, msg string) {
	t.Helper()
	if s.OK != ok || s.Message != msg {
		t.Errorf("%s: ok=%v %q\n want ok=%v %q", what, s.OK, s.Message, ok, msg)
	}
}

func TestHealthyWithNotReadyAddress(t *testing.T) {
	r := run(t, sm("app", "api"), Options{})
	m := only(t, r)
	wantStep(t, "instance", r.Instances[0].Managed, true, `managed: namespace "mon" is watched (all), instance selector every instance matches, controller ID ""`)
	wantStep(t, "namespace", m.NamespaceSelection, true, `namespace "app" is watched and selected by the ServiceMonitor namespace selector team=a`)
	wantStep(t, "selector", m.Selection, true, `selected by the ServiceMonitor selector team=a`)
	wantStep(t, "verdict", m.Verdict, true, "accepted")
	if !r.OK || len(m.Endpoints) != 1 {
		t.Fatalf("ok %v, endpoints %d", r.OK, len(m.Endpoints))
	}
	ep := m.Endpoints[0]
	if ep.Kept != 2 || ep.Job != "serviceMonitor/app/api/0" {
		t.Fatalf("endpoint %+v", ep)
	}
	byPod := map[string]Target{}
	for _, tg := range ep.Targets {
		if tg.Kept {
			byPod[tg.Pod] = tg
		}
	}
	a0, a1 := byPod["api-0"], byPod["api-1"]
	if a0.URL != "http://10.0.0.10:8080/metrics" || a0.NotReady || !a1.NotReady {
		t.Errorf("api-0 %+v, api-1 %+v", a0, a1)
	}
	want := map[string]string{"instance": "10.0.0.10:8080", "job": "api", "namespace": "app", "service": "api", "pod": "api-0", "container": "api", "endpoint": "web"}
	for k, v := range want {
		if a0.Labels[k] != v {
			t.Errorf("label %s = %q, want %q (all %v)", k, a0.Labels[k], v, a0.Labels)
		}
	}
}

// dropOf returns the drop of the target of service svc.
func dropOf(t *testing.T, ep Endpoint, svc string) *Drop {
	t.Helper()
	for _, tg := range ep.Targets {
		if tg.Service == svc {
			if tg.Kept || tg.Drop == nil {
				t.Fatalf("target of %s kept: %+v", svc, tg)
			}
			return tg.Drop
		}
	}
	t.Fatalf("no target of service %s in %+v", svc, ep.Targets)
	return nil
}

func TestWrongPortName(t *testing.T) {
	r := run(t, sm("app", "rpc"), Options{})
	ep := only(t, r).Endpoints[0]
	if r.OK || ep.Kept != 0 {
		t.Fatalf("ok %v kept %d", r.OK, ep.Kept)
	}
	d := dropOf(t, ep, "rpc")
	if d.Rule != 2 || d.Cause != `port name is "grpc"; the endpoint asks for "web"` {
		t.Errorf("drop %+v", d)
	}
	// The other Services' addresses are dropped by the selector rule.
	if d := dropOf(t, ep, "db"); d.Rule != 1 || d.Cause != `the Service's label app is "db"; the selector wants rpc` {
		t.Errorf("drop %+v", d)
	}
}

func TestServiceLacksSelectedLabel(t *testing.T) {
	r := run(t, sm("app", "db"), Options{})
	d := dropOf(t, only(t, r).Endpoints[0], "db")
	if d.Rule != 2 || d.Cause != `the Service has no label tier; the selector wants tier=backend` {
		t.Errorf("drop %+v", d)
	}
	if d.Saw["__meta_kubernetes_service_labelpresent_tier"] != "" {
		t.Errorf("saw %v", d.Saw)
	}
}

func TestNamespaceNotSelected(t *testing.T) {
	r := run(t, sm("other", "web"), Options{})
	m := only(t, r)
	wantStep(t, "namespace", m.NamespaceSelection, false, `namespace "other" does not match the ServiceMonitor namespace selector "team=a": namespace "other" has no label team; the selector wants team=a`)
	if r.OK || len(m.Endpoints) != 0 {
		t.Errorf("ok %v endpoints %v", r.OK, m.Endpoints)
	}
}

func TestNamespaceNotWatched(t *testing.T) {
	r := run(t, sm("app", "api"), Options{MonitorScope: map[string]bool{"other": true}})
	wantStep(t, "namespace", only(t, r).NamespaceSelection, false, `namespace "app" is not watched by the operator (it watches: other; flags --namespaces, --deny-namespaces)`)
}

func TestMonitorLacksSelectedLabel(t *testing.T) {
	r := run(t, sm("app", "unlabelled"), Options{})
	wantStep(t, "selector", only(t, r).Selection, false, `labels do not match the ServiceMonitor selector "team=a": the ServiceMonitor has team=b; the selector wants team=a`)
}

func TestRejectedMonitor(t *testing.T) {
	r := run(t, sm("app", "badregex"), Options{})
	wantStep(t, "verdict", only(t, r).Verdict, false, "rejected: endpoints[0]: relabelings[0]: invalid regex \"(\": error parsing regexp: missing closing ): `^(?s:()$`")
	if r.OK {
		t.Error("ok")
	}
}

func TestInstanceSelector(t *testing.T) {
	sel, _ := k8slabels.Parse("tier=canary")
	r := run(t, sm("app", "api"), Options{InstanceSelector: sel, InstanceSelectorText: "tier=canary"})
	wantStep(t, "instance", r.Instances[0].Managed, false, `the Prometheus's labels do not match --prometheus-instance-selector "tier=canary": the Prometheus has tier=main; the selector wants tier=canary`)
	if r.OK || len(r.Instances[0].Monitors) != 0 {
		t.Error("the chain should stop at the instance")
	}
}

func TestControllerID(t *testing.T) {
	r := run(t, sm("app", "api"), Options{ControllerID: "blue"})
	wantStep(t, "instance", r.Instances[0].Managed, false, `annotation operator.prometheus.io/controller-id is ""; the operator's --controller-id is "blue"`)
}

func TestPrometheusNamespaceNotWatched(t *testing.T) {
	r := run(t, sm("app", "api"), Options{PrometheusScope: map[string]bool{"app": true}})
	wantStep(t, "instance", r.Instances[0].Managed, false, `the operator does not watch namespace "mon" for Prometheus objects (it watches: app; flags --prometheus-instance-namespaces, --namespaces, --deny-namespaces)`)
}
