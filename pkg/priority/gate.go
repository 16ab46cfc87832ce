package priority

import (
	"context"
	"sync"
	"time"
)

// Gate counts the configuration reconciles in progress. The zero value is ready to use; a
// nil *Gate is never held and never waits.
type Gate struct {
	mu   sync.Mutex
	held int
	// free is closed when held drops to zero; replaced when it rises from zero.
	free chan struct{}
}

// Enter holds the gate until the returned function is called (once).
func (g *Gate) Enter() (leave func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	if g.held == 0 || g.free == nil {
		g.free = make(chan struct{})
	}
	g.held++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			g.held--
			if g.held == 0 {
				close(g.free)
			}
			g.mu.Unlock()
		})
	}
}

// Wait returns once no configuration reconcile is in progress, after at most max (so a
// stream of reconciles delays status writes but never starves them), or when ctx ends.
// It reports how long it waited.
func (g *Gate) Wait(ctx context.Context, max time.Duration) time.Duration {
	if g == nil {
		return 0
	}
	g.mu.Lock()
	if g.held == 0 {
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
