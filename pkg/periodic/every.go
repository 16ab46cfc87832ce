package periodic

import (
	"context"
	"time"
)

// Every calls fn every interval, the first time one interval from now, until ctx ends.
func Every(ctx context.Context, interval time.Duration, fn func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}
