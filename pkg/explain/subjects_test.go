package explain

import (
	"testing"
)

// TestShards: with two shards each target is kept by exactly one shard, named.
func TestShards(t *testing.T) {
	r := run(t, sm("app", "api"), Options{Prometheus: "mon/sharded"}, "testdata/cluster.yaml", "testdata/shards.yaml")
	ep := only(t, r).Endpoints[0]
	if ep.Kept != 2 || !r.OK {
		t.Fatalf("kept %d", ep.Kept)
	}
	shards := map[int]int{}
	for _, tg := range ep.Targets {
		if tg.Kept {
			if tg.Shard == nil {
				t.Fatalf("kept target without a shard: %+v", tg)
			}
			shards[*tg.Shard]++
		}
	}
	if shards[0]+shards[1] != 2 {
		t.Errorf("shards %v", shards)
	}
}

// TestAgentPodMonitor: a PrometheusAgent's chain, with a PodMonitor (role pod).
func TestAgentPodMonitor(t *testing.T) {
	r := run(t, Subject{Kind: KindPodMonitor, Namespace: "app", Name: "api"}, Options{Prometheus: "mon/agent"}, "testdata/cluster.yaml", "testdata/agent.yaml")
	if r.Instances[0].Kind != "PrometheusAgent" {
		t.Fatalf("kind %s", r.Instances[0].Kind)
	}
	ep := only(t, r).Endpoints[0]
	if ep.Job != "podMonitor/app/api/0" || ep.Kept != 2 || !r.OK {
		t.Fatalf("endpoint %+v", ep)
	}
	for _, tg := range ep.Targets {
		if !tg.Kept && tg.Pod == "db-0" && (tg.Drop.Rule != 1 || tg.Drop.Cause != `the Pod's label app is "db"; the selector wants api`) {
			t.Errorf("drop %+v", tg.Drop)
		}
	}
}

// TestServiceSubject: explain service follows the ServiceMonitors that reach it and
// shows only its targets; the others within reach are near misses with what they want.
func TestServiceSubject(t *testing.T) {
	r := run(t, Subject{Kind: KindService, Namespace: "app", Name: "db"}, Options{Prometheus: "mon/k8s"})
	inst := r.Instances[0]
	if len(inst.Monitors) != 0 {
		t.Errorf("monitors %+v: none selects Service db", inst.Monitors)
	}
	var msg string
	for _, n := range r.NearMisses {
		if n.Name == "db" {
			msg = n.Message
		}
	}
	if want := `selects Services with app=db,tier=backend: Service db has no label tier; the selector wants tier=backend`; msg != want {
		t.Errorf("near miss %q\nwant %q", msg, want)
	}
	if r.OK || len(r.Problems) != 1 || r.Problems[0] != "no ServiceMonitor or PodMonitor reaches Service app/db" {
		t.Errorf("ok %v problems %q", r.OK, r.Problems)
	}

	r = run(t, Subject{Kind: KindService, Namespace: "app", Name: "api"}, Options{Prometheus: "mon/k8s"})
	if !r.OK {
		t.Fatal("Service api should be scraped")
	}
	for _, m := range r.Instances[0].Monitors {
		for _, ep := range m.Endpoints {
			for _, tg := range ep.Targets {
				if tg.Service != "api" {
					t.Errorf("%s/%s: target of another Service: %+v", m.Kind, m.Name, tg)
				}
			}
		}
	}
}

// TestPodSubject: a Pod is reached through the Services selecting it and PodMonitors.
func TestPodSubject(t *testing.T) {
	r := run(t, Subject{Kind: KindPod, Namespace: "app", Name: "api-1"}, Options{Prometheus: "mon/k8s"})
	kinds := map[string]int{}
	for _, m := range r.Instances[0].Monitors {
		if !m.Used() {
			continue
		}
		kinds[m.Kind]++
		for _, ep := range m.Endpoints {
			if len(ep.Targets) != 1 || !ep.Targets[0].NotReady || ep.Targets[0].Pod != "api-1" {
				t.Errorf("%s/%s: targets %+v", m.Kind, m.Name, ep.Targets)
			}
		}
	}
	if kinds[KindServiceMonitor] != 1 || kinds[KindPodMonitor] != 1 || !r.OK {
		t.Errorf("used %v ok %v", kinds, r.OK)
	}
}

// TestEndpointSliceRole: with serviceDiscoveryRole EndpointSlice the same causes are named
// from the EndpointSlice meta labels (given and derived slices).
func TestEndpointSliceRole(t *testing.T) {
	r := run(t, sm("app", "rpc"), Options{Prometheus: "mon/slices"}, "testdata/cluster.yaml", "testdata/endpointslice.yaml")
	ep := only(t, r).Endpoints[0]
	if ep.Discovery != "role endpointslice in namespaces app" {
		t.Errorf("discovery %q", ep.Discovery)
	}
	if d := dropOf(t, ep, "rpc"); d.Rule != 2 || d.Cause != `port name is "grpc"; the endpoint asks for "web"` {
		t.Errorf("drop %+v", d)
	}
	r = run(t, sm("app", "db"), Options{Prometheus: "mon/slices"}, "testdata/cluster.yaml", "testdata/endpointslice.yaml")
	if d := dropOf(t, only(t, r).Endpoints[0], "db"); d.Rule != 2 || d.Cause != `the Service has no label tier; the selector wants tier=backend` {
		t.Errorf("drop %+v", d)
	}
	r = run(t, sm("app", "api"), Options{Prometheus: "mon/slices"}, "testdata/cluster.yaml", "testdata/endpointslice.yaml")
	ep = only(t, r).Endpoints[0]
	notReady := 0
	for _, tg := range ep.Targets {
		if tg.Kept && tg.NotReady {
			notReady++
		}
	}
	if !r.OK || ep.Kept != 2 || notReady != 1 {
		t.Errorf("ok %v kept %d not ready %d", r.OK, ep.Kept, notReady)
	}
}

// TestNotReadyAndFinished: a relabeling that keeps ready addresses drops the not-ready
// one, named; a PodMonitor drops the pod that has finished, by the phase rule.
func TestNotReadyAndFinished(t *testing.T) {
	r := run(t, sm("jobs", "batch"), Options{Prometheus: "mon/k8s"}, "testdata/cluster.yaml", "testdata/readiness.yaml")
	ep := only(t, r).Endpoints[0]
	var drop *Drop
	for _, tg := range ep.Targets {
		if tg.Pod == "batch-2" {
			drop = tg.Drop
		}
	}
	if ep.Kept != 1 || drop == nil || drop.Cause != `the address is not ready (__meta_kubernetes_endpoint_ready is "false")` {
		t.Errorf("kept %d, drop %+v", ep.Kept, drop)
	}
	r = run(t, Subject{Kind: KindPodMonitor, Namespace: "jobs", Name: "batch"}, Options{Prometheus: "mon/k8s"}, "testdata/cluster.yaml", "testdata/readiness.yaml")
	ep = only(t, r).Endpoints[0]
	drop = nil
	for _, tg := range ep.Targets {
		if tg.Pod == "batch-1" {
			drop = tg.Drop
		}
	}
	if ep.Kept != 2 || drop == nil || drop.Rule != 3 || drop.Cause != `the pod's phase is "Succeeded"; the job drops pods that are Failed|Succeeded` {
		t.Errorf("kept %d, drop %+v", ep.Kept, drop)
	}
}
