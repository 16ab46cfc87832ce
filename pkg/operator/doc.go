// Package operator wires Lookout together: it builds the controller-runtime manager from
// Options (caches, leader election, probes, the web listener, metrics), optionally
// installs the CRDs and registers every controller. ParseArgs fills Options from the
// command line, which accepts prometheus-operator's flags as well as Lookout's own
// (flags.go; flaghandling.go says which of them Lookout does not act on yet); tests
// call New directly or go through ParseArgs as the binary does.
package operator
