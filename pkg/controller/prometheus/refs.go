package prometheus

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
)

// refIndex maps the Secrets and ConfigMaps a Prometheus's configuration read to that
// Prometheus, so a change to one of them reconciles only the Prometheus objects that use it.
type refIndex struct {
	mu sync.Mutex
	// byObject["Secret/ns/name"] = set of Prometheus
	byObject map[string]map[types.NamespacedName]bool
	// byProm[prometheus] = set of object keys
	byProm map[types.NamespacedName]map[string]bool
}

func newRefIndex() *refIndex {
	return &refIndex{byObject: map[string]map[types.NamespacedName]bool{}, byProm: map[types.NamespacedName]map[string]bool{}}
}

func refKey(kind, ns, name string) string { return kind + "/" + ns + "/" + name }

// set replaces the references of one Prometheus.
func (x *refIndex) set(p types.NamespacedName, keys map[string]bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for k := range x.byProm[p] {
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
	x.byProm[p] = keys
}

func (x *refIndex) forget(p types.NamespacedName) {
	x.set(p, nil)
	x.mu.Lock()
	delete(x.byProm, p)
	x.mu.Unlock()
}

// users returns the Prometheus objects that referenced an object.
func (x *refIndex) users(kind, ns, name string) []types.NamespacedName {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []types.NamespacedName
	for p := range x.byObject[refKey(kind, ns, name)] {
		out = append(out, p)
	}
	return out
}
