package reloader

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// HTTPTrigger reloads Prometheus with a POST to its /-/reload endpoint (which answers only
// once the reload finished, with an error status when it failed) and then confirms the
// result through the runtimeinfo endpoint.
type HTTPTrigger struct {
	// ReloadURL receives the POST.
	ReloadURL string
	// RuntimeInfoURL is read to confirm the reload; empty skips the confirmation.
	RuntimeInfoURL string
	// Client sends the requests; nil means a client without its own timeout (the
	// context passed to Reload bounds every request).
	Client *http.Client
}

// Reload implements Trigger.
func (t *HTTPTrigger) Reload(ctx context.Context) error {
	client := t.client()
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.ReloadURL, nil)
	if err != nil {
		return fmt.Errorf("reload request: %w", err)
	}
	var wrote atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(i httptrace.WroteRequestInfo) { wrote.Store(i.Err == nil) },
	}))
	resp, err := client.Do(req)
	if err != nil {
		if wrote.Load() && errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("reload: %w: %w", errUnanswered, err)
		}
		return fmt.Errorf("reload: %w", err)
	}
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("reload: %s: %s", resp.Status, excerpt(body))
	}
	if readErr != nil {
		return fmt.Errorf("reload: reading response: %w", readErr)
	}
	if t.RuntimeInfoURL == "" {
		return nil
	}
	info, err := FetchRuntimeInfo(ctx, client, t.RuntimeInfoURL)
	if err != nil {
		return fmt.Errorf("confirming reload: %w", err)
	}
	if err := info.confirmed(start); err != nil {
		return fmt.Errorf("confirming reload: %w", err)
	}
	return nil
}

// loadedSince implements loadWatcher through the runtimeinfo endpoint; without one it
// cannot tell and reports the load finished unconfirmed, so the reloader posts again.
func (t *HTTPTrigger) loadedSince(ctx context.Context, since time.Time) (finished, succeeded bool, err error) {
	if t.RuntimeInfoURL == "" {
		return true, false, nil
	}
	client := t.client()
	info, err := FetchRuntimeInfo(ctx, client, t.RuntimeInfoURL)
	if err != nil {
		return false, false, fmt.Errorf("asking whether the reload requested at %s finished: %w",
			since.Format(time.RFC3339), err)
	}
	finished, succeeded = info.loadedSince(since)
	return finished, succeeded, nil
}

// client is Client, or a client without its own timeout when none is set.
func (t *HTTPTrigger) client() *http.Client {
	if t.Client != nil {
		return t.Client
	}
	return http.DefaultClient
}
