package targethealth

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
)

// ownerPolls is what the target and the rule poller share: every owner polled, at most
// parallel at once, and each owner's failed polls in a row counted, so that one failure
// (a rolling pod) keeps the last health and the unreachableAfter-th is published.
type ownerPolls struct {
	what             string // "target health", "rule health": the logs' prefix
	parallel         int
	unreachableAfter int

	mu       sync.Mutex
	failures map[resourcestatus.Owner]int
}

func newOwnerPolls(what string, cfg Config) *ownerPolls {
	return &ownerPolls{what: what, parallel: cfg.Parallel, unreachableAfter: cfg.UnreachableAfter, failures: map[resourcestatus.Owner]int{}}
}

// each runs poll for every owner (sorted), at most parallel at once, and forgets the
// failures of owners gone since.
func (op *ownerPolls) each(ctx context.Context, owners []resourcestatus.Owner, poll func(context.Context, resourcestatus.Owner)) {
	op.mu.Lock()
	for o := range op.failures {
		if !slices.Contains(owners, o) {
			delete(op.failures, o)
		}
	}
	op.mu.Unlock()
	sem := make(chan struct{}, op.parallel)
	var wg sync.WaitGroup
	for _, o := range owners {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			poll(ctx, o)
		}()
	}
	wg.Wait()
}

// done records the end of a poll of o begun at start (counted in m) and says whether to
// publish: always after a success, after a failure only when it is the
// unreachableAfter-th in a row (the last health stands until then).
func (op *ownerPolls) done(ctx context.Context, o resourcestatus.Owner, start time.Time, err error, m pollMetrics) bool {
	m.observe(start, err)
	op.mu.Lock()
	if err == nil {
		delete(op.failures, o)
	} else {
		op.failures[o]++
	}
	failures := op.failures[o]
	op.mu.Unlock()
	if err == nil {
		return true
	}
	log.FromContext(ctx).V(1).Info(op.what+": polling failed", "owner", o, "failures", failures, "error", err.Error())
	return failures >= op.unreachableAfter
}

// lookupFailed logs an error of reading o (a NotFound owner is gone: no log).
func (op *ownerPolls) lookupFailed(ctx context.Context, o resourcestatus.Owner, err error) {
	log.FromContext(ctx).Error(err, op.what+": reading the owner", "owner", o)
}

// pollMetrics are the poll counters of one poller (zero: not counted).
type pollMetrics struct {
	polls    *prometheus.CounterVec
	duration prometheus.Histogram
}

// observe counts a poll begun at start by its result, and a success's duration.
func (m pollMetrics) observe(start time.Time, err error) {
	if m.polls == nil {
		return
	}
	if err != nil {
		m.polls.WithLabelValues("error").Inc()
		return
	}
	m.polls.WithLabelValues("ok").Inc()
	m.duration.Observe(time.Since(start).Seconds())
}
