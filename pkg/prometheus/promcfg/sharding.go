package promcfg

import (
	"strconv"
	"strings"
)

// Sharding labels, as prometheus-operator names them: users can set __tmp_hash with their
// own relabelings to shard by something else, and __tmp_disable_sharding to make every
// shard scrape a target.
const (
	shardHashLabel    = "__tmp_hash"
	shardDisableLabel = "__tmp_disable_sharding"
	shardCurrentLabel = "__tmp_current_shard"
	// ShardEnvVar is expanded by the config-reloader into each pod's shard number.
	ShardEnvVar = "$(SHARD)"
)

// shardingRules keeps only the targets of the pod's shard: hashmod over hashSource
// (unless the user set __tmp_hash), compared with $(SHARD). Nothing is added for one shard
// unless shards are retained. With hashmod false the user's rules already shard the job
// (prometheus-operator adds no hashmod to a ScrapeConfig or additional scrape config that
// has one), and only the retention guard is added.
//
// When spec.shardRetentionPolicy retains the StatefulSets of shards scaled away, their
// pods keep running with this configuration and a shard number at or above spec.shards;
// the guard, which prometheus-operator writes too, makes them drop every target, those
// with __tmp_disable_sharding included.
//
// Under topology sharding the job first keeps its zone's targets (zoneRules), then
// shards them among the zone's shards: modulus ShardsPerZone, compared with
// $(INZONE_SHARD). Jobs of monitors (always) carry these rules even with one shard, as
// prometheus-operator writes them; additional scrape configs and ScrapeConfigs (always
// false) only with more than one.
func (ps *promSettings) shardingRules(hashSource string, hashmod, always bool) []M {
	var out []M
	if ps.RetainShards {
		out = append(out,
			relabelRule{TargetLabel: shardCurrentLabel, Replacement: strp(ShardEnvVar), Action: "replace"}.yaml(),
			relabelRule{SourceLabels: []string{shardCurrentLabel}, Regex: shardRange(ps.Shards), Action: "keep"}.yaml(),
		)
	}
	if !hashmod {
		return out
	}
	modulus, shardVar := ps.Shards, ShardEnvVar
	if ps.topologySharding() {
		if ps.Shards <= 1 && !always {
			return out
		}
		out = append(out, ps.zoneRules()...)
		modulus, shardVar = ps.ShardsPerZone, InZoneShardEnvVar
	}
	if modulus <= 1 && shardVar == ShardEnvVar {
		return out
	}
	return append(out,
		relabelRule{SourceLabels: []string{shardHashLabel, hashSource}, Regex: ";(.+)", TargetLabel: shardHashLabel, Replacement: strp("$1")}.yaml(),
		relabelRule{SourceLabels: []string{shardHashLabel}, TargetLabel: shardHashLabel, Modulus: int64(modulus), Action: "hashmod"}.yaml(),
		relabelRule{SourceLabels: []string{shardHashLabel, shardDisableLabel}, Regex: shardVar + ";|.+;.+", Action: "keep"}.yaml(),
	)
}

// shardRange matches the shard numbers 0 to shards-1: "0|1|2".
func shardRange(shards int32) string {
	parts := make([]string, 0, shards)
	for i := range max(shards, 1) {
		parts = append(parts, strconv.Itoa(int(i)))
	}
	return strings.Join(parts, "|")
}

// hasHashmod reports whether one of rules is a hashmod rule: the job shards itself.
func hasHashmod(rules []M) bool {
	for _, r := range rules {
		if a, ok := r.Get("action"); ok && a == "hashmod" {
			return true
		}
	}
	return false
}

// ShardRegex is the keep regex of a shard once the reloader has expanded $(SHARD).
func ShardRegex(shard int) string { return strconv.Itoa(shard) + ";|.+;.+" }
