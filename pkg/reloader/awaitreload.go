package reloader

import (
	"context"
	"time"
)

// Prometheus answers a reload request only once the load finished, and applies queued
// requests one after another, each a full load of the configuration. At 20,000 jobs a
// load takes tens of seconds on two cores, often longer than the reload timeout. A
// request abandoned at the timeout still runs, and posting again queues another full load
// behind it; asking runtimeinfo whether it finished costs Prometheus a gathering of all
// its own metrics (about ten seconds at that size) per question. So the reloader waits
// for the answer: past the reload timeout it logs that the load is overdue, once per
// timeout, and keeps waiting, up to Options.MaxAwait (ADR 39).

// awaitReload runs the trigger and waits for its answer, observing an ActionPending
// result each time another reload timeout passes without one.
func (r *Reloader) awaitReload(ctx context.Context, res *Result) error {
	ctx, cancel := context.WithTimeout(ctx, r.o.MaxAwait)
	defer cancel()
	answer := make(chan error, 1)
	go func() { answer <- r.o.Trigger.Reload(ctx) }()
	overdue := time.NewTicker(r.o.ReloadTimeout)
	defer overdue.Stop()
	start := time.Now()
	for {
		select {
		case err := <-answer:
			return err
		case <-overdue.C:
			r.log.Info("prometheus is still applying the reload; waiting for its answer rather than requesting another",
				"waiting", time.Since(start).Round(time.Second).String())
			if r.o.Observe != nil {
				r.o.Observe(Result{Cause: res.Cause, Started: res.Started, Action: ActionPending,
					Hash: res.Hash, ConfigHash: res.ConfigHash, FilesHash: res.FilesHash})
			}
		}
	}
}
