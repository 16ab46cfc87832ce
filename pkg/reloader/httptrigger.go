package reloader

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// HTTPTrigger reloads Prometheus with a POST to its /-/reload endpoint, which answers only
// once the load finished, with an error status when it failed: the answer is the
// confirmation, as for prometheus-config-reloader. runtimeinfo is not read (ADR 39): it
// costs Prometheus a gathering of all its own metrics, about ten seconds at 20,000 jobs.
type HTTPTrigger struct {
	// ReloadURL receives the POST.
	ReloadURL string
	// Client sends the requests; nil means a client without its own timeout (the
	// context passed to Reload bounds every request).
	Client *http.Client
}

// Reload implements Trigger.
func (t *HTTPTrigger) Reload(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.ReloadURL, nil)
	if err != nil {
		return fmt.Errorf("reload request: %w", err)
	}
	resp, err := clientOrDefault(t.Client).Do(req)
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
	return nil
}

// clientOrDefault is c, or http.DefaultClient when c is nil.
func clientOrDefault(c *http.Client) *http.Client {
	if c == nil {
		return http.DefaultClient
	}
	return c
}
