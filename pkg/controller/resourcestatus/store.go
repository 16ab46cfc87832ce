package resourcestatus

import (
	"context"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"

	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// Owner identifies the workload object (a Prometheus) that judged a resource.
type Owner struct {
	Resource  string // "prometheuses"
	Namespace string
	Name      string
}

// Store holds the latest verdicts and queues the objects whose verdicts changed for the
// status controller of their kind. It is safe for concurrent use. A nil *Store is valid
// and discards everything: the operator runs without per-object status.
type Store struct {
	mu sync.Mutex
	// verdicts[kind][object] are the owners' verdicts on the object.
	verdicts map[string]map[types.NamespacedName]ownerVerdicts
	// published[owner][kind] remembers which kinds an owner has reported, so objects it
	// stopped selecting lose their binding.
	published map[Owner]map[string]bool
	// last[owner][kind] is what the owner published last, so that a Publish of the same
	// objects only touches the verdicts that changed.
	last map[Owner]map[string][]selection.Verdict
	// queues are the work queues of the status controllers, attached when they start;
	// until then changed objects wait in pending (a set: its size is bounded by the
	// number of objects, whatever the number of changes).
	queues  map[string]workqueue.TypedRateLimitingInterface[reconcile.Request]
	pending map[string]map[types.NamespacedName]bool
	// health is the last target health poll of each owner (health.go); healthOn says a
	// poller publishes it.
	health   map[Owner]*targethealth.Snapshot
	healthOn bool
	// healthOff are the kinds whose CRD refused the TargetsHealthy (or RulesHealthy)
	// condition.
	healthOff map[string]bool
	// ruleHealth is the last rule health poll of each owner (rulehealth.go);
	// ruleHealthOn says a poller publishes it.
	ruleHealth   map[Owner]*rulehealth.Snapshot
	ruleHealthOn bool
	// cost is the sample cost of the monitors (cost.go).
	cost costState
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{
		verdicts:  map[string]map[types.NamespacedName]ownerVerdicts{},
		published: map[Owner]map[string]bool{},
		last:      map[Owner]map[string][]selection.Verdict{},
		queues:    map[string]workqueue.TypedRateLimitingInterface[reconcile.Request]{},
		pending:   map[string]map[types.NamespacedName]bool{},
		health:    map[Owner]*targethealth.Snapshot{},
	}
}

// Source is the event source of the status controller of one kind: it attaches the
// controller's queue to the store and hands it the objects that changed before.
func (s *Store) Source(kind string) source.Source {
	return source.Func(func(_ context.Context, q workqueue.TypedRateLimitingInterface[reconcile.Request]) error {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.queues[kind] = q
		for nn := range s.pending[kind] {
			q.Add(reconcile.Request{NamespacedName: nn})
		}
		delete(s.pending, kind)
		return nil
	})
}

// Publish replaces the verdicts an owner reached for one kind. Only selected objects (used
// or rejected as invalid) get a binding; objects it no longer selects lose theirs. Every
// object whose verdict changed is queued for a status write.
func (s *Store) Publish(owner Owner, kind string, verdicts []selection.Verdict) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	byObj := s.verdicts[kind]
	if byObj == nil {
		byObj = map[types.NamespacedName]ownerVerdicts{}
		s.verdicts[kind] = byObj
	}
	if last, ok := s.last[owner][kind]; ok && sameObjects(last, verdicts) {
		// The same objects as last time, in the same order (a one-monitor change): only
		// the verdicts that differ touch the maps, and are copied over the remembered
		// ones in place (a copy of all of them was 1.3 MB and 2.5 ms of every change at
		// 20,000 monitors).
		for i, v := range verdicts {
			if v != last[i] {
				s.setLocked(byObj, owner, kind, v)
				last[i] = v
			}
		}
		s.markPublishedLocked(owner, kind)
		return
	}
	defer func() { s.remember(owner, kind, verdicts) }()
	keep := make(map[types.NamespacedName]bool, len(verdicts))
	for _, v := range verdicts {
		if v.Binds() {
			keep[types.NamespacedName{Namespace: v.Namespace, Name: v.Name}] = true
		}
		s.setLocked(byObj, owner, kind, v)
	}
	for nn := range byObj {
		if !keep[nn] && s.removeLocked(byObj, owner, nn) {
			s.enqueueLocked(kind, nn)
		}
	}
	s.markPublishedLocked(owner, kind)
}

// setLocked records owner's verdict v on one object and queues the object when its
// binding changes: a verdict that binds is stored, one that does not removes the owner's
// binding. The caller holds s.mu.
func (s *Store) setLocked(byObj map[types.NamespacedName]ownerVerdicts, owner Owner, kind string, v selection.Verdict) {
	nn := types.NamespacedName{Namespace: v.Namespace, Name: v.Name}
	if !v.Binds() {
		if s.removeLocked(byObj, owner, nn) {
			s.enqueueLocked(kind, nn)
		}
		return
	}
	owners := byObj[nn]
	if owners.set(owner, v) {
		byObj[nn] = owners
		s.enqueueLocked(kind, nn)
	}
}

// removeLocked drops owner's verdict on nn and reports whether it had one. The caller
// holds s.mu.
func (s *Store) removeLocked(byObj map[types.NamespacedName]ownerVerdicts, owner Owner, nn types.NamespacedName) bool {
	owners, ok := byObj[nn]
	if !ok || !owners.remove(owner) {
		return false
	}
	if len(owners) == 0 {
		delete(byObj, nn)
	} else {
		byObj[nn] = owners
	}
	return true
}

func (s *Store) markPublishedLocked(owner Owner, kind string) {
	if s.published[owner] == nil {
		s.published[owner] = map[string]bool{}
	}
	s.published[owner][kind] = true
}

// remember keeps a copy of what owner published for kind, for the next Publish's fast
// path. The caller holds s.mu.
func (s *Store) remember(owner Owner, kind string, verdicts []selection.Verdict) {
	if s.last[owner] == nil {
		s.last[owner] = map[string][]selection.Verdict{}
	}
	s.last[owner][kind] = slices.Clone(verdicts)
}

// sameObjects reports whether a and b judge the same objects in the same order.
func sameObjects(a, b []selection.Verdict) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Namespace != b[i].Namespace || a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// Forget removes an owner that no longer exists or is no longer managed.
func (s *Store) Forget(owner Owner) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for kind, byObj := range s.verdicts {
		for nn := range byObj {
			if s.removeLocked(byObj, owner, nn) {
				s.enqueueLocked(kind, nn)
			}
		}
	}
	delete(s.published, owner)
	delete(s.last, owner)
	delete(s.health, owner)
	delete(s.ruleHealth, owner)
	s.forgetCostLocked(owner)
}

// Verdicts returns the verdicts of one object, by owner, and whether each owner has
// published this kind at least once (owners not yet heard from keep their old binding).
func (s *Store) Verdicts(kind string, nn types.NamespacedName) (map[Owner]selection.Verdict, func(Owner) bool) {
	out := map[Owner]selection.Verdict{}
	if s == nil {
		return out, func(Owner) bool { return false }
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ov := range s.verdicts[kind][nn] {
		out[ov.owner] = ov.verdict
	}
	pub := map[Owner]bool{}
	for o, kinds := range s.published {
		if kinds[kind] {
			pub[o] = true
		}
	}
	return out, func(o Owner) bool { return pub[o] }
}

// enqueueLocked queues one object of a kind; the caller holds s.mu. Adding to a work
// queue never blocks, and the queue folds repeated adds of one object into one.
func (s *Store) enqueueLocked(kind string, nn types.NamespacedName) {
	if q := s.queues[kind]; q != nil {
		q.Add(reconcile.Request{NamespacedName: nn})
		return
	}
	p := s.pending[kind]
	if p == nil {
		p = map[types.NamespacedName]bool{}
		s.pending[kind] = p
	}
	p[nn] = true
}

// pendingLen is the number of objects waiting for a queue (tests).
func (s *Store) pendingLen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, p := range s.pending {
		n += len(p)
	}
	return n
}
