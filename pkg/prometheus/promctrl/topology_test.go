package promctrl

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// zoned shards a Prometheus over zones a and b, two shards each.
func zoned(p *monitoringv1.Prometheus) {
	p.Spec.Shards = ptr.To(int32(4))
	p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
		Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
		Topology: &monitoringv1.TopologyShardingStrategy{Values: []string{"a", "b"}},
	}
}

// reloaderEnvOf is the environment of a StatefulSet's config-reloader container.
func reloaderEnvOf(t *testing.T, f *fixture, name string) map[string]string {
	t.Helper()
	ss, ok := f.statefulSet(name)
	if !ok {
		t.Fatalf("no StatefulSet %s", name)
	}
	env := map[string]string{}
	for _, c := range ss.Spec.Template.Spec.Containers {
		if c.Name == "config-reloader" {
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
		}
	}
	return env
}

// TestTopologySharding: with the PrometheusTopologySharding gate, each shard runs in its
// zone and the configuration keeps the zone's targets; without it the strategy is
// ignored and the shards share the targets by address, as prometheus-operator does.
func TestTopologySharding(t *testing.T) {
	t.Run("gate on", func(t *testing.T) {
		f := newFixture(t, Config{TopologySharding: true}, prom("p", zoned), serviceMonitor("app"))
		f.reconcileResult("p")
		for shard, want := range []struct{ zone, inZone string }{{"a", "0"}, {"b", "0"}, {"a", "1"}, {"b", "1"}} {
			name := "prometheus-p"
			if shard > 0 {
				name += "-shard-" + string(rune('0'+shard))
			}
			ss, ok := f.statefulSet(name)
			if !ok {
				t.Fatalf("no StatefulSet %s", name)
			}
			if got := ss.Spec.Template.Spec.NodeSelector[corev1.LabelTopologyZone]; got != want.zone {
				t.Errorf("%s: node selector zone %q, want %q", name, got, want.zone)
			}
			env := reloaderEnvOf(t, f, name)
			if env["TOPOLOGY_ZONE"] != want.zone || env["INZONE_SHARD"] != want.inZone {
				t.Errorf("%s: reloader TOPOLOGY_ZONE=%q INZONE_SHARD=%q, want %q and %q", name, env["TOPOLOGY_ZONE"], env["INZONE_SHARD"], want.zone, want.inZone)
			}
		}
		cfg := f.config("p")
		for _, want := range []string{"zone: $(TOPOLOGY_ZONE)", "regex: $(TOPOLOGY_ZONE);|.+;.+", "regex: $(INZONE_SHARD);|.+;.+", "modulus: 2"} {
			if !strings.Contains(cfg, want) {
				t.Errorf("the configuration has no %q:\n%s", want, cfg)
			}
		}
	})
	t.Run("gate off", func(t *testing.T) {
		f := newFixture(t, Config{}, prom("p", zoned), serviceMonitor("app"))
		f.reconcileResult("p")
		ss, ok := f.statefulSet("prometheus-p-shard-1")
		if !ok {
			t.Fatal("no StatefulSet for shard 1")
		}
		if sel := ss.Spec.Template.Spec.NodeSelector; sel[corev1.LabelTopologyZone] != "" {
			t.Errorf("node selector %v pins a zone with the gate off", sel)
		}
		if env := reloaderEnvOf(t, f, "prometheus-p-shard-1"); env["TOPOLOGY_ZONE"] != "" {
			t.Errorf("reloader has TOPOLOGY_ZONE=%q with the gate off", env["TOPOLOGY_ZONE"])
		}
		cfg := f.config("p")
		if strings.Contains(cfg, "TOPOLOGY_ZONE") || strings.Contains(cfg, "INZONE_SHARD") {
			t.Errorf("the configuration shards by zone with the gate off:\n%s", cfg)
		}
		if !strings.Contains(cfg, "modulus: 4") || !strings.Contains(cfg, "regex: $(SHARD);|.+;.+") {
			t.Errorf("the configuration does not shard by address over 4 shards:\n%s", cfg)
		}
	})
	t.Run("pod zone labels", func(t *testing.T) {
		f := newFixture(t, Config{TopologySharding: true, PodZoneLabels: true}, prom("p", zoned), serviceMonitor("app"))
		f.reconcileResult("p")
		cfg := f.config("p")
		if !strings.Contains(cfg, "__meta_kubernetes_pod_label_topology_kubernetes_io_zone") || strings.Contains(cfg, "attach_metadata") {
			t.Errorf("the configuration does not read the pod's zone label, or attaches node metadata:\n%s", cfg)
		}
	})
}
