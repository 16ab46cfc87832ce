package reloader_test

import (
	"os"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/reloader"
)

// TestStartupLoadIsTaken: Prometheus started from the output the init container rendered,
// so once it is ready its first load is the current content: the reloader waits while it
// starts (503), then reports that load without requesting another (ADR 39).
func TestStartupLoadIsTaken(t *testing.T) {
	t.Parallel()
	prom := &slowPrometheus{loadTime: 10 * time.Millisecond, started: true, notReady: 2}
	_, results := startAgainst(t, prom)
	waited := 0
	deadline := time.After(awaitTimeout)
	for {
		select {
		case r := <-results:
			switch r.Action {
			case reloader.ActionWaiting:
				waited++
				continue
			case reloader.ActionReloaded:
			default:
				t.Fatalf("check %s (%v), want waiting, then reloaded", r.Action, r.Err)
			}
			if waited != 2 || r.ConfigHash == "" {
				t.Fatalf("reloaded after %d waits with config hash %q; want 2 waits and the hash", waited, r.ConfigHash)
			}
			time.Sleep(100 * time.Millisecond) // a request would show by now
			if posts, _ := prom.counts(); posts != 0 {
				t.Fatalf("%d reload requests; the first load was the current content", posts)
			}
			return
		case <-deadline:
			t.Fatal("the first load was not reported")
		}
	}
}

// TestStartupLoadOfOlderInputIsNotTaken: an input modified after Prometheus started (here
// the output, rewritten with the same bytes) may not be what its first load read: the
// reloader requests a reload as before.
func TestStartupLoadOfOlderInputIsNotTaken(t *testing.T) {
	t.Parallel()
	prom := &slowPrometheus{loadTime: 10 * time.Millisecond, started: true, notReady: 1000}
	_, results := startAgainst(t, prom)
	// While Prometheus is "starting", the output changes after its start.
	time.Sleep(50 * time.Millisecond)
	now := time.Now()
	if err := os.Chtimes(prom.outFile, now, now); err != nil {
		t.Fatal(err)
	}
	prom.mu.Lock()
	prom.notReady = 0
	prom.mu.Unlock()
	deadline := time.After(awaitTimeout)
	for {
		select {
		case r := <-results:
			if r.Action != reloader.ActionReloaded {
				continue
			}
			if posts, _ := prom.counts(); posts != 1 {
				t.Fatalf("%d reload requests, want 1: the first load may have read older content", posts)
			}
			return
		case <-deadline:
			t.Fatal("no reload")
		}
	}
}
