package reloader

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"time"
)

// Reloader renders the config and reloads Prometheus when the watched content changes.
// Use New, then Run (the sidecar) or RenderOnce (the init container).
type Reloader struct {
	o   Options
	m   *Metrics
	log *slog.Logger

	// lastHash is the content hash Prometheus last loaded, confirmed.
	lastHash string
	// force makes the next check reload even when the hash is unchanged, after a failure.
	force bool
	// failures counts consecutive failed apply operations, for the backoff.
	failures int
	// waiting is set while the config input is missing (logged once).
	waiting bool
	// retry fires the next retry after a failure.
	retry *time.Timer
	// startSettled is set once the first load of a starting Prometheus was taken as the
	// current content or found not to be (startupload.go); startWaitLogged once the wait
	// for it was logged.
	startSettled, startWaitLogged bool
}

// New validates o and returns a Reloader.
func New(o Options) (*Reloader, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Reloader{o: o, m: o.Metrics, log: o.Logger}, nil
}

// dirs returns the directories to watch: the config input's and the watched ones.
func (r *Reloader) dirs() []string {
	dirs := r.configDirs()
	for _, d := range r.o.WatchedDirs {
		if !slices.Contains(dirs, filepath.Clean(d)) {
			dirs = append(dirs, filepath.Clean(d))
		}
	}
	return dirs
}

// configDirs returns the directories of the config file and its parts.
func (r *Reloader) configDirs() []string {
	var dirs []string
	if r.o.ConfigFile == "" {
		return nil
	}
	for _, f := range append([]string{r.o.ConfigFile}, r.o.ConfigPartFiles...) {
		if d := filepath.Dir(f); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// Run checks once at start, then on every file event (after DelayInterval), every
// WatchInterval, and on retries after failures, until ctx is done. Failures are logged,
// counted and retried; only a broken setup (no file watcher) makes Run return an error.
func (r *Reloader) Run(ctx context.Context) error {
	if r.o.Trigger == nil {
		return errors.New("reloader: no reload trigger configured")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := newDirWatcher(r.dirs(), r.m, r.log)
	if err != nil {
		return err
	}
	go w.run(ctx)
	// The first check below covers whatever the initial watch setup signalled.
	select {
	case <-w.Changed():
	default:
	}

	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	pending := false
	r.retry = time.NewTimer(time.Hour)
	r.retry.Stop()
	defer r.retry.Stop()
	ticker := time.NewTicker(r.o.WatchInterval)
	defer ticker.Stop()

	r.check(ctx, CauseStart)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.Changed():
			// The first event of a burst starts the delay; later ones ride along, so a
			// steady stream of events cannot postpone the check indefinitely.
			if !pending {
				debounce.Reset(r.o.DelayInterval)
				pending = true
			}
		case <-debounce.C:
			pending = false
			r.check(ctx, CauseEvent)
		case <-ticker.C:
			r.check(ctx, CausePeriodic)
		case <-r.retry.C:
			r.check(ctx, CauseRetry)
		}
	}
}

// check runs one check and reports it.
func (r *Reloader) check(ctx context.Context, cause Cause) {
	res := Result{Cause: cause, Started: time.Now()}
	r.m.checks.WithLabelValues(string(cause)).Inc()
	r.apply(ctx, &res)
	if r.o.Observe != nil {
		r.o.Observe(res)
	}
}

// apply compares the content with what Prometheus last loaded and, when it differs (or a
// failure is pending), writes the output and reloads.
func (r *Reloader) apply(ctx context.Context, res *Result) {
	snap, ok := r.snapshot(res)
	if !ok {
		return
	}
	defer snap.close()
	outChanged, err := r.outputDiffers(snap)
	if err != nil {
		r.fail(res, err)
		return
	}
	if r.adoptStartupLoad(ctx, res, snap, outChanged) {
		return
	}
	if !outChanged && snap.hash == r.lastHash && !r.force {
		res.Action = ActionUnchanged
		return
	}
	r.m.applies.Inc()
	if outChanged {
		out, err := r.writeOutput(snap)
		if err != nil {
			r.fail(res, err)
			return
		}
		res.UnsetVars = out.unset
	}
	start := time.Now()
	err = r.reload(ctx, res)
	res.ReloadDuration = time.Since(start)
	if ctx.Err() != nil {
		res.Action, res.Err = ActionFailed, fmt.Errorf("reload interrupted: %w", ctx.Err())
		return
	}
	if err != nil {
		r.fail(res, err)
		return
	}
	r.reloaded(res, snap, res.ReloadDuration)
}

// reloaded records that Prometheus loaded snap's content.
func (r *Reloader) reloaded(res *Result, snap snapshot, took time.Duration) {
	r.lastHash, r.force, r.failures = snap.hash, false, 0
	r.retry.Stop()
	if snap.configHash != "" {
		r.m.setConfigInfo(snap.configHash)
	}
	res.Action = ActionReloaded
	r.log.Info("prometheus reloaded", "cause", res.Cause, "config_hash", shortHash(snap.configHash),
		"duration", took.String())
}

// snapshot reads the content; ok is false when the check must stop there.
func (r *Reloader) snapshot(res *Result) (snapshot, bool) {
	snap, err := takeSnapshot(r.o.ConfigFile, r.o.ConfigPartFiles, r.o.WatchedDirs)
	if errors.Is(err, ErrInputMissing) {
		if !r.waiting {
			r.log.Info("waiting for the config input to be complete", "file", r.o.ConfigFile, "reason", err.Error())
		}
		r.waiting = true
		res.Action = ActionWaiting
		return snap, false
	}
	r.waiting = false
	if err != nil {
		// A corrupt input will not mend itself: no retry, the next change is checked.
		r.m.applies.Inc()
		r.m.appliesFailed.Inc()
		res.Action, res.Err = ActionFailed, err
		r.log.Error("config input unusable; keeping the previous output", "err", err)
		return snap, false
	}
	res.Hash, res.ConfigHash, res.FilesHash = snap.hash, snap.configHash, snap.filesHash
	return snap, true
}

// fail records a failed apply operation and schedules a forced retry with backoff.
func (r *Reloader) fail(res *Result, err error) {
	r.m.appliesFailed.Inc()
	r.force = true
	r.failures++
	delay := backoff(r.o.RetryInterval, r.failures)
	r.retry.Reset(delay)
	res.Action, res.Err = ActionFailed, err
	r.log.Error("applying the configuration failed", "err", err, "retry_in", delay.String(),
		"consecutive_failures", r.failures)
}

// reload triggers Prometheus, waits for its answer (awaitReload) and records the metrics.
func (r *Reloader) reload(ctx context.Context, res *Result) error {
	r.m.reloads.Inc()
	start := time.Now()
	err := r.awaitReload(ctx, res)
	r.m.reloadDuration.Observe(time.Since(start).Seconds())
	if err != nil {
		r.m.reloadsFailed.Inc()
		r.m.lastReloadSuccessful.Set(0)
		return err
	}
	r.m.reloadSucceeded()
	return nil
}

// shortHash abbreviates a hash for logs.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
