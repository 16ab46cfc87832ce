package watch

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// RefIndex maps the Secrets and ConfigMaps the configuration of a top-level object
// (a Prometheus, an Alertmanager) read to that object, so a change to one of them
// reconciles only the objects that use it.
type RefIndex struct {
	mu sync.Mutex
	// byObject["Secret/ns/name"] = set of owners
	byObject map[string]map[types.NamespacedName]bool
	// byOwner[owner] = set of object keys
	byOwner map[types.NamespacedName]map[string]bool
}

// NewRefIndex returns an empty index.
func NewRefIndex() *RefIndex {
	return &RefIndex{byObject: map[string]map[types.NamespacedName]bool{}, byOwner: map[types.NamespacedName]map[string]bool{}}
}

// RefKey is the key of a Secret or ConfigMap in the index.
func RefKey(kind, ns, name string) string { return kind + "/" + ns + "/" + name }

// Set replaces the references of one owner.
func (x *RefIndex) Set(p types.NamespacedName, keys map[string]bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for k := range x.byOwner[p] {
		if !keys[k] {
			delete(x.byObject[k], p)
			if len(x.byObject[k]) == 0 {
				delete(x.byObject, k)
			}
		}
	}
	for k := range keys {
		if x.byObject[k] == nil {
			x.byObject[k] = map[types.NamespacedName]bool{}
		}
		x.byObject[k][p] = true
	}
	x.byOwner[p] = keys
}

// Forget drops an owner that is gone.
func (x *RefIndex) Forget(p types.NamespacedName) {
	x.Set(p, nil)
	x.mu.Lock()
	delete(x.byOwner, p)
	x.mu.Unlock()
}

// Users returns the owners that referenced an object.
func (x *RefIndex) Users(kind, ns, name string) []types.NamespacedName {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []types.NamespacedName
	for p := range x.byObject[RefKey(kind, ns, name)] {
		out = append(out, p)
	}
	return out
}
