package promplan

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/workload"
)

// The reloader variables of topology sharding, expanded in the shard's configuration
// (see pkg/prometheus/promcfg/topology.go); prometheus-operator's names.
const (
	TopologyZoneEnv = "TOPOLOGY_ZONE"
	InZoneShardEnv  = "INZONE_SHARD"
)

// zonedSpecFields are the pod fields of the spec for one shard: under topology sharding
// the node selector also requires the shard's zone (topology.kubernetes.io/zone), over
// any value spec.nodeSelector gives that label, as prometheus-operator sets it.
func zonedSpecFields(p *promserver.Server, shard int32) workload.SpecFields {
	f := workload.SpecFieldsOf(p.Spec)
	zone := p.ZoneOfShard(shard)
	if zone == "" {
		return f
	}
	sel := make(map[string]string, len(f.NodeSelector)+1)
	for k, v := range f.NodeSelector {
		sel[k] = v
	}
	sel[corev1.LabelTopologyZone] = zone
	f.NodeSelector = sel
	return f
}
