// Package apply is the one write path for the objects the operator generates. Every
// generated object carries the hash of its content in an annotation and its owner
// references; the live object's metadata comes from the informer cache, and a write
// happens only when the hashes differ and the live object belongs to the same owner. A
// short memo of our own writes covers the window before the cache catches up. With a
// LiveReader, the API server settles what the metadata cannot: a Secret or ConfigMap
// version the Applier did not write is read once and rewritten when someone changed its
// data behind the hash, and an object created moments ago that the cache does not show
// is looked up before the memo is trusted (it may have been deleted already). Every
// write is counted in lookout_api_writes_total on the registry the operator injects.
package apply
