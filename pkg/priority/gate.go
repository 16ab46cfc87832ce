package priority

import (
	"context"
	"sync"
	"time"
)

// DefaultLinger is the operator's Gate.Linger: enough for the API server to send a
// configuration write's watch events while it is not also taking status writes.
const DefaultLinger = 500 * time.Millisecond

// Gate counts the configuration reconciles in progress, and stays closed for Linger after
// the last one ends. The zero value is ready to use; a nil *Gate is never held and never
// waits.
type Gate struct {
	// Linger keeps the gate closed this long after the last holder left, so that the
	// watch events of the objects just written (a config Secret of 300 KB reaching the
	// kubelets and the config-reloaders) are not queued behind status writes.
	Linger time.Duration

	mu   sync.Mutex
	held int
	// free is closed when the gate opens: nobody holds it and the linger is over. shut
	// says the gate is closed (free not closed yet); epoch counts the Enters, so that a
	// linger that a new holder interrupted does not open the gate.
	free  chan struct{}
	shut  bool
	epoch uint64
}

// Enter holds the gate until the returned function is called (once).
func (g *Gate) Enter() (leave func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	if !g.shut {
		g.free, g.shut = make(chan struct{}), true
	}
	g.held++
	g.epoch++
	g.mu.Unlock()
	var once sync.Once
	return func() { once.Do(g.leave) }
}

func (g *Gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held--
	if g.held > 0 {
		return
	}
	if g.Linger <= 0 {
		g.openLocked()
		return
	}
	epoch := g.epoch
	time.AfterFunc(g.Linger, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.held == 0 && g.epoch == epoch {
			g.openLocked()
		}
	})
}

func (g *Gate) openLocked() {
	if g.shut {
		close(g.free)
		g.shut = false
	}
}

// Wait returns once no configuration reconcile is in progress and the linger after the
// last one is over, after at most max (so a stream of reconciles delays status writes but
// never starves them), or when ctx ends. It reports how long it waited.
func (g *Gate) Wait(ctx context.Context, max time.Duration) time.Duration {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	if !g.shut {
		g.mu.Unlock()
		return 0
	}
	free := g.free
	g.mu.Unlock()
	start := time.Now()
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-free:
	case <-t.C:
	case <-ctx.Done():
	}
	return time.Since(start)
}
