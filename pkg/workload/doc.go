// Package workload builds, without calling the API server, what the Prometheus controller
// creates for one Prometheus object: a StatefulSet per shard, the governing headless
// Service, the web configuration, the config-reloader's Role in API-watch mode, and the
// status computed from the live StatefulSets. Every builder is deterministic, so the
// controller can compare hashes and write only when the desired object changed.
package workload
