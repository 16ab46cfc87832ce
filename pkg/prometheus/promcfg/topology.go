package promcfg

// Topology sharding (spec.shardingStrategy.mode Topology): every shard runs in one zone
// and keeps only the targets of that zone, then shards them by address among the shards
// of its zone. The reloader of each pod sets $(TOPOLOGY_ZONE) to the shard's zone and
// $(INZONE_SHARD) to its position in the zone (pkg/prometheus/promplan). The rules and
// labels are prometheus-operator's.
const (
	// ZoneEnvVar is expanded by the config-reloader into the zone of the pod's shard.
	ZoneEnvVar = "$(TOPOLOGY_ZONE)"
	// InZoneShardEnvVar is expanded into the shard's position among its zone's shards.
	InZoneShardEnvVar = "$(INZONE_SHARD)"

	zoneTmpLabel = "__tmp_topology"
	// The target's zone: from the EndpointSlice endpoint, else from the pod's label
	// (set by the API server from 1.35 on) or the node's (with node metadata attached).
	endpointSliceZoneLabel = "__meta_kubernetes_endpointslice_endpoint_zone"
	podZoneLabel           = "__meta_kubernetes_pod_label_topology_kubernetes_io_zone"
	podZonePresentLabel    = "__meta_kubernetes_pod_labelpresent_topology_kubernetes_io_zone"
	nodeZoneLabel          = "__meta_kubernetes_node_label_topology_kubernetes_io_zone"
	nodeZonePresentLabel   = "__meta_kubernetes_node_labelpresent_topology_kubernetes_io_zone"
)

// topologySharding reports whether the jobs keep only their shard's zone.
func (ps *promSettings) topologySharding() bool { return len(ps.Zones) > 0 }

// zoneRules find the target's zone into __tmp_topology and keep the target when it is
// the shard's zone (or when __tmp_disable_sharding is set). A target whose zone is
// unknown (a static or non-Kubernetes target) is dropped by every shard.
func (ps *promSettings) zoneRules() []M {
	fallback, present := nodeZoneLabel, nodeZonePresentLabel
	if ps.PodZoneLabels {
		fallback, present = podZoneLabel, podZonePresentLabel
	}
	return []M{
		relabelRule{SourceLabels: []string{endpointSliceZoneLabel, zoneTmpLabel}, TargetLabel: zoneTmpLabel, Regex: "(.+);", Replacement: strp("$1"), Action: "replace"}.yaml(),
		relabelRule{SourceLabels: []string{fallback, present, zoneTmpLabel}, TargetLabel: zoneTmpLabel, Regex: "(.+);true;", Replacement: strp("$1"), Action: "replace"}.yaml(),
		relabelRule{SourceLabels: []string{zoneTmpLabel, shardDisableLabel}, Regex: ZoneEnvVar + ";|.+;.+", Action: "keep"}.yaml(),
	}
}

// attachNodeForZone is whether a pod or endpoint discovery attaches node metadata: when
// the monitor asks for it, and under topology sharding when pods do not carry their
// zone label, for the node's zone label.
func (ps *promSettings) attachNodeForZone(asked bool) bool {
	return asked || (ps.topologySharding() && !ps.PodZoneLabels)
}
