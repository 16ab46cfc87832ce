// Package write is the write path every instance controller (Prometheus, PrometheusAgent,
// Alertmanager, ThanosRuler) shares for the objects it generates: content hashes, the
// gzipped config cache, the operator-wide labels and annotations, the Ensure call into the
// shared Applier that writes only what changed, the reloader's RBAC, StatefulSet
// replacement and repair, and the checks of what a write needs (managed, storage class).
package write
