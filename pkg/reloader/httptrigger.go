package reloader

import (
	"context"
	"fmt"
	"io"
	"net/http"
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
	client := t.Client
	if client == nil {
		client = http.DefaultClient
	}
	start := time.Now()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.ReloadURL, nil)
	if err != nil {
		return fmt.Errorf("reload request: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
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
