package reloader

import (
	"context"
	"errors"
	"time"
)

// Prometheus queues every reload request and applies them one after another, each a full
// load of the configuration. When a reload takes longer than the reload timeout (tens of
// seconds at 20,000 jobs), the request the timeout cut off still runs; posting again on
// every retry only queues more full loads behind it, and Prometheus then reloads without
// end. So a reload whose request went unanswered is followed, not repeated: until
// Prometheus reports a load after that request, checks wait; once it does, the load
// counts for the content the request was made for.

// loadWatcher is a Trigger that can tell whether Prometheus finished a load requested at
// a given time (HTTPTrigger, through the runtimeinfo endpoint).
type loadWatcher interface {
	// loadedSince reports whether Prometheus finished a load at or after since, and
	// whether that load succeeded.
	loadedSince(ctx context.Context, since time.Time) (finished, succeeded bool, err error)
}

// unansweredReload is a reload request the reload timeout cut off after it was sent.
type unansweredReload struct {
	at   time.Time // when the request was made
	hash string    // the content it was made for
}

// maxUnanswered bounds how long a reload whose request went unanswered is waited for
// before the reloader posts again.
const maxUnanswered = 15 * time.Minute

// errUnanswered marks a reload request that was sent but whose answer the reload timeout
// cut off (as opposed to one refused, or answered with an error).
var errUnanswered = errors.New("prometheus did not answer the reload request in time; it still applies it")

// unanswered tells whether err is a request cut off by the reload timeout after it was sent.
func unanswered(err error) bool {
	return errors.Is(err, errUnanswered)
}

// followUnanswered handles a check while a reload request is unanswered. done is true when
// the check ends here: Prometheus is still loading (the check waits and retries), or it
// finished loading the same content successfully (recorded as reloaded). Otherwise the
// check goes on and reloads as usual.
func (r *Reloader) followUnanswered(ctx context.Context, res *Result, snap snapshot, outChanged bool) (done bool) {
	u := r.pendingLoad
	if u.at.IsZero() {
		return false
	}
	w, ok := r.o.Trigger.(loadWatcher)
	if !ok || time.Since(u.at) > maxUnanswered {
		r.pendingLoad = unansweredReload{}
		return false
	}
	askCtx, cancel := context.WithTimeout(ctx, r.o.ReloadTimeout)
	finished, succeeded, err := w.loadedSince(askCtx, u.at)
	cancel()
	switch {
	case err != nil:
		r.fail(res, err)
		return true
	case !finished:
		res.Action = ActionPending
		r.retry.Reset(r.o.RetryInterval)
		r.log.Info("prometheus is still applying the reload requested earlier; not requesting another",
			"requested", u.at.Format(time.RFC3339), "waiting", time.Since(u.at).Round(time.Second).String())
		return true
	}
	r.pendingLoad = unansweredReload{}
	if !succeeded || outChanged || snap.hash != u.hash {
		return false // reload again: the load failed, or was of older content
	}
	r.m.reloadSucceeded()
	r.reloaded(res, snap, time.Since(u.at))
	return true
}
