package resourcestatus

import (
	"encoding/json"
	"sync"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
)

// Written remembers the last status this process applied to each object. A status is
// written when it differs from the cached object's or from the last one written: after
// an API server outage the cache can still show a status older than a write it has not
// seen yet, and comparing with the cache alone then skips the write that would undo it
// (Reconciled=False left behind after the outage). The zero value is ready to use.
type Written[S any] struct {
	mu   sync.Mutex
	last map[types.NamespacedName]S
}

// Unchanged reports whether desired is both the cached status and the last written one
// (or nothing was written yet by this process).
func (w *Written[S]) Unchanged(nn types.NamespacedName, desired, cached S) bool {
	if !equality.Semantic.DeepEqual(desired, cached) {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	last, ok := w.last[nn]
	return !ok || equality.Semantic.DeepEqual(desired, last)
}

// Remember records the status just applied to nn, as the API server stores it: through
// JSON, so that times are cut to the second as they come back in the cache.
func (w *Written[S]) Remember(nn types.NamespacedName, s S) {
	var stored S
	if b, err := json.Marshal(s); err == nil && json.Unmarshal(b, &stored) == nil {
		s = stored
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.last == nil {
		w.last = map[types.NamespacedName]S{}
	}
	w.last[nn] = s
}

// Forget drops what was written to an object that is gone.
func (w *Written[S]) Forget(nn types.NamespacedName) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.last, nn)
}
