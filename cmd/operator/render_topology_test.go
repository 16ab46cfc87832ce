package main

import (
	"strings"
	"testing"
)

// TestRenderTopologySharding: render shards by zone offline as the operator does, reads
// the zone from pod labels for a cluster of 1.35 or later, and follows the
// PrometheusTopologySharding gate given after --.
func TestRenderTopologySharding(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []string
		want, not  []string
		wantStderr string
	}{
		{name: "config", args: []string{"-f", "testdata/render/topology.yaml"},
			want: []string{"zone: $(TOPOLOGY_ZONE)", "- __meta_kubernetes_node_label_topology_kubernetes_io_zone", "node: true", "regex: $(INZONE_SHARD);|.+;.+", "modulus: 2"}},
		{name: "config on 1.35", args: []string{"-f", "testdata/render/topology.yaml", "--kubernetes-version", "v1.35.0"},
			want: []string{"- __meta_kubernetes_pod_label_topology_kubernetes_io_zone"}, not: []string{"attach_metadata", "__meta_kubernetes_node_label_topology"}},
		{name: "objects", args: []string{"-f", "testdata/render/topology.yaml", "--objects"},
			want: []string{"topology.kubernetes.io/zone: zone-a", "topology.kubernetes.io/zone: zone-b", "name: TOPOLOGY_ZONE", "name: INZONE_SHARD", "name: prometheus-zoned-shard-3"}},
		{name: "gate off", args: []string{"-f", "testdata/render/topology.yaml", "--objects", "--", "--feature-gates=PrometheusTopologySharding=false"},
			want: []string{"name: prometheus-zoned-shard-3"}, not: []string{"TOPOLOGY_ZONE", "INZONE_SHARD", "topology.kubernetes.io/zone: zone-a"}},
		{name: "config gate off", args: []string{"-f", "testdata/render/topology.yaml", "--", "--feature-gates=PrometheusTopologySharding=false"},
			want: []string{"modulus: 4", "regex: $(SHARD);|.+;.+"}, not: []string{"TOPOLOGY_ZONE", "INZONE_SHARD"}},
		{name: "bad version", args: []string{"-f", "testdata/render/topology.yaml", "--kubernetes-version", "latest"}, wantStderr: "--kubernetes-version"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runRender(c.args...)
			if c.wantStderr != "" {
				if code != 2 || !strings.Contains(errs, c.wantStderr) {
					t.Fatalf("exit %d, stderr %q; want exit 2 naming %s", code, errs, c.wantStderr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d, stderr:\n%s", code, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output has no %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(out, n) {
					t.Errorf("output has %q", n)
				}
			}
		})
	}
}
