// Package generated is the write path every top-level controller (Prometheus,
// Alertmanager, ...) shares for the objects it generates: content hashes, the gzipped
// config cache, the operator-wide labels and annotations, and the Ensure call into the
// shared Applier that writes only what changed.
package generated
