// Package shardpods picks, for each shard of a Prometheus or ThanosRuler, the pod whose
// HTTP API to ask (the status pollers and `lookout-operator top`): the first ready pod
// by name, and the number of its web port. Pure: no client.
package shardpods
