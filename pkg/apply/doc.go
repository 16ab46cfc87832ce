// Package apply writes the objects the operator generates, only when they differ from what
// is live: every generated object carries the hash of its content in an annotation, the live
// object's metadata comes from the informer cache, and a write happens only when the hashes
// differ. Every write is counted in lookout_api_writes_total.
package apply
