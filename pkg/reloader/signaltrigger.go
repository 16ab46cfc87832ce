package reloader

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"time"
)

// SignalTrigger reloads Prometheus by sending SIGHUP to every process with its name (the
// pod must share its process namespace). Prometheus reloads asynchronously on SIGHUP, so
// the result is confirmed by polling the runtimeinfo endpoint until it reports a load
// newer than the signal, or a failure.
type SignalTrigger struct {
	// ProcessName is matched against process names (see FindProcesses).
	ProcessName string
	// RuntimeInfoURL is polled to confirm the reload; empty trusts the signal.
	RuntimeInfoURL string
	// ProcRoot is the proc file system; empty means /proc.
	ProcRoot string
	// PollInterval spaces the confirmation polls; zero means 50ms.
	PollInterval time.Duration
	// Client reads runtimeinfo; nil means http.DefaultClient.
	Client *http.Client
}

// Reload implements Trigger.
func (t *SignalTrigger) Reload(ctx context.Context) error {
	client := clientOrDefault(t.Client)
	var before RuntimeInfo
	if t.RuntimeInfoURL != "" {
		var err error
		if before, err = FetchRuntimeInfo(ctx, client, t.RuntimeInfoURL); err != nil {
			return fmt.Errorf("reading state before the signal: %w", err)
		}
		// Prometheus reports load times in whole seconds: when the previous load happened
		// in the current second, a new load could not be told apart from it.
		if next := before.LastConfigTime.Add(time.Second); time.Now().Before(next) {
			if err := sleepCtx(ctx, time.Until(next)); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	if err := t.signal(); err != nil {
		return err
	}
	if t.RuntimeInfoURL == "" {
		return nil
	}
	poll := t.PollInterval
	if poll <= 0 {
		poll = 50 * time.Millisecond
	}
	ticker := time.NewTicker(poll)
	defer ticker.Stop()
	var lastErr error
	for {
		info, err := FetchRuntimeInfo(ctx, client, t.RuntimeInfoURL)
		switch {
		case err != nil:
			lastErr = err
		case info.ReloadConfigSuccess && !info.LastConfigTime.Before(start.Truncate(time.Second)):
			return nil
		case before.ReloadConfigSuccess && !info.ReloadConfigSuccess:
			return errors.New("prometheus reports the configuration reload failed")
		default:
			lastErr = info.confirmed(start)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("reload not confirmed before the timeout: %w", lastErr)
		case <-ticker.C:
		}
	}
}

// signal sends SIGHUP to every process named ProcessName.
func (t *SignalTrigger) signal() error {
	root := t.ProcRoot
	if root == "" {
		root = "/proc"
	}
	pids, err := FindProcesses(root, t.ProcessName)
	if err != nil {
		return err
	}
	if len(pids) == 0 {
		return fmt.Errorf("no process named %q found (is the pod's process namespace shared?)", t.ProcessName)
	}
	var errs []error
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGHUP); err != nil {
			errs = append(errs, fmt.Errorf("SIGHUP to %s (pid %d): %w", t.ProcessName, pid, err))
		}
	}
	return errors.Join(errs...)
}

// sleepCtx waits for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
