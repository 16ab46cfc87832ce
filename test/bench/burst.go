package main

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
)

// burstChanges makes o.burst single-object changes back to back, as a GitOps sync
// applies a batch: right after the complete config, while the start-up status writes
// run, each change is written as soon as the previous write returned, without waiting
// for the config. Each change's latency is from its own write to the first config
// Secret version that holds it. Their change numbers follow the spaced start-up changes'
// and they touch objects of their own.
func burstChanges(ctx context.Context, o options, cl *cluster, sc scenario, n int, events <-chan configEvent, tail *auditTail, r *result) ([]auditEvent, error) {
	k := o.kind
	for drained := false; !drained; {
		select {
		case <-events:
		default:
			drained = true
		}
	}
	type pending struct {
		i, c    int
		written time.Time
	}
	var todo []pending
	first := o.changes + o.startupChanges
	for b := 0; b < o.burst; b++ {
		i := (changedObject(b, n, o.burst) + n/(3*o.burst) + 1) % n
		c := first + b
		key := types.NamespacedName{Namespace: sc.namespace(i), Name: k.itemName(i)}
		var err error
		for attempt := 0; ; attempt++ {
			obj := k.newObject()
			if err = cl.c.Get(ctx, key, obj); err != nil {
				break
			}
			if err = k.mutate(obj, sc, i, c); err != nil {
				break
			}
			if err = cl.c.Update(ctx, obj); err == nil || !apierrors.IsConflict(err) || attempt > 10 {
				break
			}
		}
		if err != nil {
			return nil, fmt.Errorf("burst change %d (%s): %w", b, k.describeChange(sc, i, c), err)
		}
		todo = append(todo, pending{i: i, c: c, written: time.Now()})
	}
	var seen []changeSeen
	timeout := time.After(o.changeLimit)
	for len(todo) > 0 {
		select {
		case ev, ok := <-events:
			if !ok {
				return nil, ctx.Err()
			}
			if ev.err != nil {
				continue
			}
			rest := todo[:0]
			for _, p := range todo {
				if k.changed(ev.config, sc, p.i, p.c) {
					r.burstLatencies = append(r.burstLatencies, ev.at.Sub(p.written))
					seen = append(seen, changeSeen{written: p.written, at: ev.at})
					continue
				}
				rest = append(rest, p)
			}
			todo = rest
		case <-timeout:
			r.burstFailed += len(todo)
			logf("  %d burst changes not in the config Secret after %s", len(todo), o.changeLimit)
			todo = nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	logf("N=%d: %d changes back to back during the start-up writes: median %s, worst %s, %d failed", n, len(r.burstLatencies),
		ms(percentile(r.burstLatencies, 0.5)), ms(percentile(r.burstLatencies, 1)), r.burstFailed)
	// The audit log has the operator's config Secret writes (written as each completes,
	// before its watch event; a moment's wait covers the file's write).
	time.Sleep(200 * time.Millisecond)
	evs, err := tail.next()
	if err != nil {
		return nil, err
	}
	r.burstSplit = splitChanges(seen, configWrites(evs, promNamespace, o.configSecret))
	r.burstSplit.log(n, "the burst's changes")
	return evs, nil
}
