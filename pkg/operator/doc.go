// Package operator wires Lookout together: it builds the controller-runtime manager from
// Options (caches, leader election, probes, metrics), optionally installs the CRDs and
// registers every controller. cmd/operator fills Options from flags; tests call New directly.
package operator
