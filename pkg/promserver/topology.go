package promserver

import (
	"fmt"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// DefaultZoneLabel is the external label that carries a topology shard's zone when
// spec.shardingStrategy.topology.externalLabelName is unset.
const DefaultZoneLabel = "zone"

// Zones are the topology values of spec.shardingStrategy when it shards by topology
// (mode Topology with at least one value), nil otherwise: then sharding is by address.
// Shard i runs in zone Zones()[i mod len(Zones())], as prometheus-operator assigns them.
// A DaemonSet-mode agent is not sharded and has no zones. The controller clears the
// strategy when the PrometheusTopologySharding feature gate is off.
func (s *Server) Zones() []string {
	ss := s.Spec.ShardingStrategy
	if s.DaemonSetMode() || ss == nil || ss.Mode == nil || *ss.Mode != monitoringv1.TopologyShardingStrategyMode || ss.Topology == nil {
		return nil
	}
	return ss.Topology.Values
}

// ZoneOfShard is the zone shard runs in, "" without topology sharding.
func (s *Server) ZoneOfShard(shard int32) string {
	z := s.Zones()
	if len(z) == 0 || shard < 0 {
		return ""
	}
	return z[int(shard)%len(z)]
}

// InZoneShard is shard's position among the shards of its zone (shard / number of
// zones), shard itself without topology sharding.
func (s *Server) InZoneShard(shard int32) int32 {
	z := s.Zones()
	if len(z) == 0 {
		return shard
	}
	return shard / int32(len(z))
}

// ShardsPerZone is how many shards share one zone's targets: shards / number of zones,
// at least 1.
func (s *Server) ShardsPerZone(shards int32) int32 {
	z := s.Zones()
	if len(z) == 0 {
		return shards
	}
	return max(shards/int32(len(z)), 1)
}

// ZoneLabel is the external label naming the shard's zone: externalLabelName, "zone"
// when unset, "" (none) when set empty or without topology sharding.
func (s *Server) ZoneLabel() string {
	if len(s.Zones()) == 0 {
		return ""
	}
	if n := s.Spec.ShardingStrategy.Topology.ExternalLabelName; n != nil {
		return *n
	}
	return DefaultZoneLabel
}

// CheckTopology checks spec.shardingStrategy: topology only with mode Topology, as many
// shards as zones at least (the CRD's own rules, for objects that did not pass through
// the API server), and zone values a node selector can hold.
func (s *Server) CheckTopology() error {
	ss := s.Spec.ShardingStrategy
	if ss == nil {
		return nil
	}
	if ss.Mode != nil && *ss.Mode != monitoringv1.AddressShardingStrategyMode && *ss.Mode != monitoringv1.TopologyShardingStrategyMode {
		return fmt.Errorf("spec.shardingStrategy.mode %q: must be Address or Topology", *ss.Mode)
	}
	if ss.Topology != nil && (ss.Mode == nil || *ss.Mode != monitoringv1.TopologyShardingStrategyMode) {
		return fmt.Errorf("spec.shardingStrategy.topology can only be defined when mode is set to 'Topology'")
	}
	zones := s.Zones()
	if len(zones) == 0 {
		return nil
	}
	shards := int32(1)
	if s.Spec.Shards != nil {
		shards = *s.Spec.Shards
	}
	if int(shards) < len(zones) {
		return fmt.Errorf("spec.shards (%d) must be greater than or equal to the number of spec.shardingStrategy.topology.values (%d) when sharding strategy mode is Topology", shards, len(zones))
	}
	for i, z := range zones {
		if z == "" {
			return fmt.Errorf("spec.shardingStrategy.topology.values[%d] is empty", i)
		}
		if errs := validation.IsValidLabelValue(z); len(errs) > 0 {
			return fmt.Errorf("spec.shardingStrategy.topology.values[%d] %q is not a valid node label value: %s", i, z, errs[0])
		}
	}
	return nil
}

// WithoutTopologySharding is s as prometheus-operator reads it without the
// PrometheusTopologySharding feature gate: mode Topology ignored, the shards sharing the
// targets by address. s itself when it does not shard by topology, a copy otherwise.
func (s *Server) WithoutTopologySharding() *Server {
	if len(s.Zones()) == 0 {
		return s
	}
	c := s.DeepCopy()
	c.Spec.ShardingStrategy = nil
	return c
}
