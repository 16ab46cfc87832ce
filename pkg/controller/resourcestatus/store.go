package resourcestatus

import (
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/event"

	"github.com/lookout-operator/lookout/pkg/selection"
)

// Owner identifies the workload object (a Prometheus) that judged a resource.
type Owner struct {
	Resource  string // "prometheuses"
	Namespace string
	Name      string
}

// Store holds the latest verdicts. It is safe for concurrent use.
type Store struct {
	mu sync.Mutex
	// verdicts[kind][object][owner]
	verdicts map[string]map[types.NamespacedName]map[Owner]selection.Verdict
	// published[owner][kind] remembers which kinds an owner has reported, so objects it
	// stopped selecting lose their binding.
	published map[Owner]map[string]bool
	notify    map[string]chan event.GenericEvent
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{
		verdicts:  map[string]map[types.NamespacedName]map[Owner]selection.Verdict{},
		published: map[Owner]map[string]bool{},
		notify:    map[string]chan event.GenericEvent{},
	}
}

// channel returns the notification channel of a kind, creating it.
func (s *Store) channel(kind string) chan event.GenericEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.notify[kind]
	if !ok {
		ch = make(chan event.GenericEvent, 4096)
		s.notify[kind] = ch
	}
	return ch
}

// Publish replaces the verdicts an owner reached for one kind. Only selected objects (used
// or rejected as invalid) get a binding; objects it no longer selects lose theirs. Every
// object whose verdict changed is queued for a status write.
func (s *Store) Publish(owner Owner, kind string, verdicts []selection.Verdict) {
	var changed []types.NamespacedName
	s.mu.Lock()
	byObj := s.verdicts[kind]
	if byObj == nil {
		byObj = map[types.NamespacedName]map[Owner]selection.Verdict{}
		s.verdicts[kind] = byObj
	}
	keep := map[types.NamespacedName]bool{}
	for _, v := range verdicts {
		if v.Reason != selection.Accepted && v.Reason != selection.InvalidConfiguration {
			continue
		}
		nn := types.NamespacedName{Namespace: v.Namespace, Name: v.Name}
		keep[nn] = true
		owners := byObj[nn]
		if owners == nil {
			owners = map[Owner]selection.Verdict{}
			byObj[nn] = owners
		}
		if old, ok := owners[owner]; !ok || old != v {
			owners[owner] = v
			changed = append(changed, nn)
		}
	}
	for nn, owners := range byObj {
		if _, ok := owners[owner]; ok && !keep[nn] {
			delete(owners, owner)
			if len(owners) == 0 {
				delete(byObj, nn)
			}
			changed = append(changed, nn)
		}
	}
	if s.published[owner] == nil {
		s.published[owner] = map[string]bool{}
	}
	s.published[owner][kind] = true
	s.mu.Unlock()
	s.enqueue(kind, changed)
}

// Forget removes an owner that no longer exists.
func (s *Store) Forget(owner Owner) {
	changed := map[string][]types.NamespacedName{}
	s.mu.Lock()
	for kind, byObj := range s.verdicts {
		for nn, owners := range byObj {
			if _, ok := owners[owner]; ok {
				delete(owners, owner)
				if len(owners) == 0 {
					delete(byObj, nn)
				}
				changed[kind] = append(changed[kind], nn)
			}
		}
	}
	delete(s.published, owner)
	s.mu.Unlock()
	for kind, nns := range changed {
		s.enqueue(kind, nns)
	}
}

// Verdicts returns the verdicts of one object, by owner, and whether each owner has
// published this kind at least once (owners not yet heard from keep their old binding).
func (s *Store) Verdicts(kind string, nn types.NamespacedName) (map[Owner]selection.Verdict, func(Owner) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[Owner]selection.Verdict{}
	for o, v := range s.verdicts[kind][nn] {
		out[o] = v
	}
	pub := map[Owner]bool{}
	for o, kinds := range s.published {
		if kinds[kind] {
			pub[o] = true
		}
	}
	return out, func(o Owner) bool { return pub[o] }
}

func (s *Store) enqueue(kind string, nns []types.NamespacedName) {
	if len(nns) == 0 {
		return
	}
	ch := s.channel(kind)
	for _, nn := range nns {
		ev := event.GenericEvent{Object: placeholder(nn)}
		select {
		case ch <- ev:
		default:
			// The queue is full: deliver asynchronously rather than block the reconciler.
			go func() { ch <- ev }()
		}
	}
}
