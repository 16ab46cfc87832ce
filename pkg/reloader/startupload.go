package reloader

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// A pod's Prometheus loads its configuration once when it starts, from the output the
// init container rendered. The reloader's first check used to request a reload all the
// same, which Prometheus queues behind that first load: at 20,000 jobs a second full load
// of 30-70 s on two cores, with ConfigLoaded waiting for it. So the first check asks
// Prometheus first: once Prometheus is ready and reports a successful load, and every
// input it reads (the output file, the watched directories and their files) was last
// modified before the process started, that load read the current content, and the
// reloader takes it as its own without a request (ADR 39). Anything else (no such
// endpoint, a failed load, an input newer than the process, a rendered output that
// differs from the file) requests a reload as before.

// startState is what Prometheus tells about its start.
type startState int

const (
	// startUnknown: no answer that settles it (no runtimeinfo endpoint, as on
	// Alertmanager, or the last load failed): request a reload.
	startUnknown startState = iota
	// startStarting: Prometheus answers but is not ready (503): its first load is still
	// to come or under way.
	startStarting
	// startLoaded: ready, with a successful load since it started at the time returned.
	startLoaded
)

// startProber is a Trigger that can ask Prometheus about its start (HTTPTrigger).
type startProber interface {
	startState(ctx context.Context) (startState, time.Time, error)
}

// runtimeInfoURL is the runtimeinfo endpoint beside a /-/reload URL, or "" when the URL
// does not end so.
func runtimeInfoURL(reloadURL string) string {
	base, ok := strings.CutSuffix(reloadURL, "/-/reload")
	if !ok {
		return ""
	}
	return base + "/api/v1/status/runtimeinfo"
}

// startState implements startProber through the runtimeinfo endpoint beside ReloadURL
// (same scheme, host and route prefix). A refused connection (Prometheus not listening
// yet) is an error: the reloader retries with backoff and reports it, as for a reload.
// Any other failure, or an answer that is not Prometheus's, leaves it unknown.
func (t *HTTPTrigger) startState(ctx context.Context) (startState, time.Time, error) {
	u := runtimeInfoURL(t.ReloadURL)
	if u == "" {
		return startUnknown, time.Time{}, nil
	}
	info, err := FetchRuntimeInfo(ctx, clientOrDefault(t.Client), u)
	var status *errStatus
	switch {
	case errors.As(err, &status) && status.code == http.StatusServiceUnavailable:
		return startStarting, time.Time{}, nil
	case errors.Is(err, syscall.ECONNREFUSED):
		return startUnknown, time.Time{}, err
	case err != nil:
		return startUnknown, time.Time{}, nil
	case !info.ReloadConfigSuccess || info.StartTime.IsZero() || info.LastConfigTime.Before(info.StartTime.Truncate(time.Second)):
		return startUnknown, time.Time{}, nil
	}
	return startLoaded, info.StartTime, nil
}

// startupPoll is how often a starting Prometheus is asked again.
const startupPoll = time.Second

// adoptStartupLoad handles the first check while Prometheus may still be applying the
// load it started with. done is true when the check ends here: Prometheus is starting
// (the check waits and asks again), or its first load read the current content
// (recorded as reloaded). Otherwise the check goes on and reloads as usual.
func (r *Reloader) adoptStartupLoad(ctx context.Context, res *Result, snap snapshot, outChanged bool) (done bool) {
	p, ok := r.o.Trigger.(startProber)
	if !ok || r.lastHash != "" || r.startSettled || outChanged {
		r.startSettled = true
		return false
	}
	askCtx, cancel := context.WithTimeout(ctx, r.o.ReloadTimeout)
	state, started, err := p.startState(askCtx)
	cancel()
	switch {
	case err != nil:
		r.fail(res, err)
		return true
	case state == startStarting:
		if !r.startWaitLogged {
			r.log.Info("waiting for prometheus to finish starting before checking its first load")
		}
		r.startWaitLogged = true
		res.Action = ActionWaiting
		r.retry.Reset(min(startupPoll, r.o.RetryInterval))
		return true
	}
	r.startSettled = true
	if state != startLoaded {
		return false
	}
	newest, err := r.newestInput()
	if err != nil || !newest.Before(started) {
		return false
	}
	r.m.reloadSucceeded()
	r.log.Info("prometheus loaded the current content when it started; no reload needed",
		"started", started.Format(time.RFC3339Nano), "newest_input", newest.Format(time.RFC3339Nano))
	r.reloaded(res, snap, 0)
	return true
}

// newestInput is the latest modification time of what Prometheus reads: the output file
// and the config input, each watched directory (an entry added, removed or swapped) and
// what each of its entries is and points to.
func (r *Reloader) newestInput() (time.Time, error) {
	var newest time.Time
	see := func(fi os.FileInfo) {
		if fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	for _, f := range append([]string{r.o.ConfigOutFile, r.o.ConfigFile}, r.o.ConfigPartFiles...) {
		if f == "" {
			continue
		}
		fi, err := os.Stat(f)
		if err != nil {
			return newest, err
		}
		see(fi)
	}
	for _, dir := range r.o.WatchedDirs {
		fi, err := os.Stat(dir)
		if err != nil {
			return newest, err
		}
		see(fi)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return newest, err
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			for _, stat := range []func(string) (os.FileInfo, error){os.Lstat, os.Stat} {
				fi, err := stat(path)
				if err != nil {
					return newest, err
				}
				see(fi)
			}
		}
	}
	return newest, nil
}
