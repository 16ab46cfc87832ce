package promserver

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/utils/ptr"
)

func zonedServer(shards *int32, label *string, zones ...string) *Server {
	p := &monitoringv1.Prometheus{}
	p.Spec.Shards = shards
	p.Spec.ShardingStrategy = &monitoringv1.ShardingStrategy{
		Mode:     ptr.To(monitoringv1.TopologyShardingStrategyMode),
		Topology: &monitoringv1.TopologyShardingStrategy{ExternalLabelName: label, Values: zones},
	}
	return Of(p)
}

// TestZoneAssignment: shard i runs in zone i mod n, i / n-th of its zone; the zone's
// shards share its targets (shards / n, at least 1), as prometheus-operator assigns them.
func TestZoneAssignment(t *testing.T) {
	s := zonedServer(ptr.To[int32](5), nil, "a", "b")
	var got []string
	for shard := range int32(5) {
		got = append(got, s.ZoneOfShard(shard)+":"+string(rune('0'+s.InZoneShard(shard))))
	}
	if want := "a:0 b:0 a:1 b:1 a:2"; strings.Join(got, " ") != want {
		t.Errorf("zones %q, want %q", strings.Join(got, " "), want)
	}
	if n := s.ShardsPerZone(5); n != 2 {
		t.Errorf("ShardsPerZone(5) = %d, want 2", n)
	}
	if n := zonedServer(ptr.To[int32](1), nil, "a", "b", "c").ShardsPerZone(1); n != 1 {
		t.Errorf("ShardsPerZone(1) over 3 zones = %d, want 1", n)
	}
	if l := s.ZoneLabel(); l != "zone" {
		t.Errorf("default zone label %q", l)
	}
	if l := zonedServer(ptr.To[int32](2), ptr.To(""), "a").ZoneLabel(); l != "" {
		t.Errorf("zone label set empty gives %q", l)
	}
	address := Of(&monitoringv1.Prometheus{})
	if address.ZoneOfShard(1) != "" || address.InZoneShard(3) != 3 || address.ShardsPerZone(4) != 4 || address.ZoneLabel() != "" {
		t.Error("a Prometheus sharded by address has zones")
	}
	off := s.WithoutTopologySharding()
	if off.Zones() != nil || s.Zones() == nil {
		t.Errorf("WithoutTopologySharding: copy zones %v, original zones %v", off.Zones(), s.Zones())
	}
	if address.WithoutTopologySharding() != address {
		t.Error("WithoutTopologySharding copied a Prometheus that has no zones")
	}
}

func TestCheckTopology(t *testing.T) {
	for _, c := range []struct {
		name string
		s    *Server
		want string
	}{
		{"valid", zonedServer(ptr.To[int32](2), nil, "a", "b"), ""},
		{"shards unset, one zone", zonedServer(nil, nil, "a"), ""},
		{"fewer shards", zonedServer(ptr.To[int32](2), nil, "a", "b", "c"), "spec.shards (2) must be greater than or equal to the number of spec.shardingStrategy.topology.values (3)"},
		{"shards 0", zonedServer(ptr.To[int32](0), nil, "a"), "spec.shards (0)"},
		{"empty value", zonedServer(ptr.To[int32](2), nil, "a", ""), "values[1] is empty"},
		{"bad value", zonedServer(ptr.To[int32](2), nil, "a", "eu west"), `values[1] "eu west" is not a valid node label value`},
		{"no values", zonedServer(ptr.To[int32](2), nil), ""},
	} {
		err := c.s.CheckTopology()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
