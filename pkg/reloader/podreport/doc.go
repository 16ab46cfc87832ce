// Package podreport tells the operator which configuration the reloader's Prometheus
// runs: after each confirmed reload of a new configuration, it records the hash of that
// configuration as a condition of the reloader's own pod (lookout.dev/ConfigLoaded,
// through the pods/status subresource). One write per new hash, retried with backoff;
// the reloader never waits for it. See Documentation/adr/0017-config-loaded.md.
package podreport
