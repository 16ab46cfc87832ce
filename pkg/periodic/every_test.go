package periodic

import (
	"context"
	"testing"
	"time"
)

// TestEvery: fn runs once per interval after the first interval, and Every returns when
// the context ends.
func TestEvery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := make(chan struct{}, 10)
	ended := make(chan struct{})
	go func() {
		Every(ctx, 10*time.Millisecond, func() { calls <- struct{}{} })
		close(ended)
	}()
	for range 3 {
		select {
		case <-calls:
		case <-time.After(5 * time.Second):
			t.Fatal("fn was not called")
		}
	}
	cancel()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("Every did not return after the context ended")
	}
}
