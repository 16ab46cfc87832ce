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
	var seen []burstSeen
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
					seen = append(seen, burstSeen{written: p.written, at: ev.at})
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
	r.burstSplit = splitBurst(seen, configWrites(evs, promNamespace, o.configSecret))
	if s := r.burstSplit; s.n > 0 {
		logf("N=%d: the burst's changes split (median / worst): edit written → operator's config Secret write received %s / %s, that write %s / %s, its watch event → harness %s / %s",
			n, ms(percentile(s.react, 0.5)), ms(percentile(s.react, 1)), ms(percentile(s.write, 0.5)), ms(percentile(s.write, 1)), ms(percentile(s.deliver, 0.5)), ms(percentile(s.deliver, 1)))
	}
	return evs, nil
}

// burstSeen is one change of a burst: when the harness's write returned and when the
// watch delivered the first config Secret version holding it.
type burstSeen struct{ written, at time.Time }

// writeSpan is one write of the operator: received and completed by the API server.
type writeSpan struct{ received, completed time.Time }

// configWrites are the operator's writes of the config Secret name in ns, in order.
func configWrites(evs []auditEvent, ns, name string) []writeSpan {
	var out []writeSpan
	for i := range evs {
		e := &evs[i]
		if e.write() && e.ObjectRef != nil && e.ObjectRef.Resource == "secrets" && e.ObjectRef.Namespace == ns && e.ObjectRef.Name == name &&
			(e.ResponseStatus == nil || e.ResponseStatus.Code < 300) {
			out = append(out, writeSpan{e.RequestReceivedTimestamp, e.StageTimestamp})
		}
	}
	return out
}

// burstSplit splits each change's latency at the operator's config Secret write that
// carried it (the last one completed before the watch delivered the version): from the
// edit's write to that request's arrival at the API server (the edit's watch event to
// the operator, its queue and reconcile), the write itself, and from its completion to
// the harness's watch event.
type burstSplit struct {
	n                     int
	react, write, deliver []time.Duration
}

// String is "react (worst); write (worst); deliver (worst)" in milliseconds, "–" when empty.
func (s burstSplit) String() string {
	if s.n == 0 {
		return "–"
	}
	mw := func(d []time.Duration) string {
		return fmt.Sprintf("%s (%s)", msStr(percentile(d, 0.5)), msStr(percentile(d, 1)))
	}
	return fmt.Sprintf("%s; %s; %s", mw(s.react), mw(s.write), mw(s.deliver))
}

func splitBurst(seen []burstSeen, writes []writeSpan) burstSplit {
	var s burstSplit
	for _, c := range seen {
		var w *writeSpan
		for i := range writes {
			if !writes[i].completed.After(c.at) && writes[i].received.After(c.written) {
				w = &writes[i]
			}
		}
		if w == nil {
			continue
		}
		s.n++
		s.react = append(s.react, w.received.Sub(c.written))
		s.write = append(s.write, w.completed.Sub(w.received))
		s.deliver = append(s.deliver, c.at.Sub(w.completed))
	}
	return s
}
