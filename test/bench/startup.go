package main

import (
	"context"
	"time"
)

// startupChanges makes o.startupChanges single-object changes, the first as soon as the
// config is complete, while the operator still writes its start-up status, and records
// their latencies in r. Like the timed changes, each waits o.settle after the previous
// one was seen: made back to back, the changes kept the operator's gate closed (ADR 14),
// so the status writes hardly ran while they were measured. Their change numbers follow
// the timed changes' (each change sets a value of its own), and they touch other objects
// than the first timed changes. It returns the operator's requests seen meanwhile.
func startupChanges(ctx context.Context, o options, cl *cluster, sc scenario, n int, events <-chan configEvent, tail *auditTail, r *result) ([]auditEvent, error) {
	k := o.kind
	for c := 0; c < o.startupChanges; c++ {
		if c > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(o.settle):
			}
		}
		i := (changedObject(c, n, o.startupChanges) + n/(2*o.startupChanges)) % n
		lat, err := change(ctx, cl, k, sc, i, o.changes+c, events, o.changeLimit, nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			logf("  start-up change %d (%s): %v", c, k.describeChange(sc, i, o.changes+c), err)
			r.startupFailed++
			continue
		}
		r.startupLatencies = append(r.startupLatencies, lat)
		logf("  start-up change %d (%s): %s", c, k.describeChange(sc, i, o.changes+c), ms(lat))
	}
	r.startupChangesEnd = time.Now()
	evs, err := tail.next()
	if err != nil {
		return nil, err
	}
	r.writesAfterStartupCh = writesSince(evs, r.startupChangesEnd)
	logf("N=%d: %d changes during the start-up writes: median %s, worst %s, %d failed", n, len(r.startupLatencies),
		ms(percentile(r.startupLatencies, 0.5)), ms(percentile(r.startupLatencies, 1)), r.startupFailed)
	return evs, nil
}

// writesSince counts the writes in evs that the API server finished after t (none when t
// is zero).
func writesSince(evs []auditEvent, t time.Time) int {
	if t.IsZero() {
		return 0
	}
	n := 0
	for i := range evs {
		if evs[i].write() && evs[i].StageTimestamp.After(t) {
			n++
		}
	}
	return n
}

// restartUnchanged stops the operator, starts it again with nothing changed and records
// the writes the new process makes within o.restartWait (an operator that remembers
// nothing across restarts rewrites its status and objects here). It returns the new
// process, which the caller stops.
func restartUnchanged(ctx context.Context, o options, op *operatorProc, tail *auditTail, logPath string, r *result) (*operatorProc, error) {
	logf("restarting the operator with nothing changed; counting its writes for %s", o.restartWait)
	if err := op.stop(30 * time.Second); err != nil {
		return nil, err
	}
	if _, err := tail.next(); err != nil { // the old process's last requests
		return nil, err
	}
	next, err := startOperator(o.operator, o.appended, op.kubeconfig, logPath)
	if err != nil {
		return nil, err
	}
	if err := next.wait(ctx, o.restartWait); err != nil {
		return next, err
	}
	evs, err := tail.next()
	if err != nil {
		return next, err
	}
	r.restarted = true
	r.restartReqs.add(evs)
	logf("after the restart: %d writes in %s: %s", r.restartReqs.writes, o.restartWait, r.restartReqs.String())
	return next, nil
}
