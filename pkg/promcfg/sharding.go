package promcfg

import "strconv"

// Sharding labels, as prometheus-operator names them: users can set __tmp_hash with their
// own relabelings to shard by something else, and __tmp_disable_sharding to make every
// shard scrape a target.
const (
	shardHashLabel    = "__tmp_hash"
	shardDisableLabel = "__tmp_disable_sharding"
	// ShardEnvVar is expanded by the config-reloader into each pod's shard number.
	ShardEnvVar = "$(SHARD)"
)

// shardingRules keeps only the targets of the pod's shard: hashmod over hashSource
// (unless the user set __tmp_hash), compared with $(SHARD). Nothing is added for one shard.
func (ps *promSettings) shardingRules(hashSource string) []M {
	if ps.Shards <= 1 {
		return nil
	}
	return []M{
		relabelRule{SourceLabels: []string{shardHashLabel, hashSource}, Regex: ";(.+)", TargetLabel: shardHashLabel, Replacement: strp("$1")}.yaml(),
		relabelRule{SourceLabels: []string{shardHashLabel}, TargetLabel: shardHashLabel, Modulus: int64(ps.Shards), Action: "hashmod"}.yaml(),
		relabelRule{SourceLabels: []string{shardHashLabel, shardDisableLabel}, Regex: ShardEnvVar + ";|.+;.+", Action: "keep"}.yaml(),
	}
}

// ShardRegex is the keep regex of a shard once the reloader has expanded $(SHARD).
func ShardRegex(shard int) string { return strconv.Itoa(shard) + ";|.+;.+" }
