package promctrl

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// firstPass records which objects have been through reconcileObjects since the operator
// started, so that the operator can tell when its start-up generation is over (ADR 36:
// the garbage collector is then set for the steady state).
type firstPass struct {
	mu      sync.Mutex
	done    map[types.NamespacedName]bool
	changed chan struct{}
}

func newFirstPass() *firstPass {
	return &firstPass{done: map[types.NamespacedName]bool{}, changed: make(chan struct{}, 1)}
}

// reconciled records one pass of nn.
func (f *firstPass) reconciled(nn types.NamespacedName) {
	f.mu.Lock()
	seen := f.done[nn]
	f.done[nn] = true
	f.mu.Unlock()
	if !seen {
		select {
		case f.changed <- struct{}{}:
		default:
		}
	}
}

// all reports whether every one of names has been reconciled.
func (f *firstPass) all(names []types.NamespacedName) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, nn := range names {
		if !f.done[nn] {
			return false
		}
	}
	return true
}

// wait returns true once every one of names has been reconciled, false when limit
// passed first or ctx ended.
func (f *firstPass) wait(ctx context.Context, names []types.NamespacedName, limit time.Duration) bool {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	for !f.all(names) {
		select {
		case <-f.changed:
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// AfterFirstPass registers with mgr a runnable that calls fn once every object of the
// reconciler's kind this operator manages, found after the caches synced (paused ones
// aside), has been through
// one reconcile, whatever its outcome, or after limit. It runs on the leader only, like
// the controllers.
func (r *Reconciler) AfterFirstPass(mgr manager.Manager, limit time.Duration, fn func(complete bool)) error {
	return mgr.Add(manager.RunnableFunc(func(ctx context.Context) error {
		servers, err := steps{r}.List(ctx, r.Client)
		if err != nil {
			fn(false)
			return nil
		}
		var names []types.NamespacedName
		for _, p := range servers {
			if !p.Spec.Paused && r.Managed(p.Object()) {
				names = append(names, nnOf(p))
			}
		}
		if complete := r.first.wait(ctx, names, limit); complete || ctx.Err() == nil {
			fn(complete)
		}
		return nil
	}))
}
