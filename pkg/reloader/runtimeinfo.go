package reloader

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// RuntimeInfo is the part of Prometheus's /api/v1/status/runtimeinfo the reloader reads.
type RuntimeInfo struct {
	// StartTime is when the Prometheus process started (its web handler was made,
	// before its first load of the configuration).
	StartTime time.Time `json:"startTime"`
	// ReloadConfigSuccess is false when the last reload attempt failed.
	ReloadConfigSuccess bool `json:"reloadConfigSuccess"`
	// LastConfigTime is the time of the last successful load, with one-second resolution.
	LastConfigTime time.Time `json:"lastConfigTime"`
}

// maxBody bounds how much of a response the reloader reads.
const maxBody = 1 << 20

// errStatus is a runtimeinfo answer with a status other than 200.
type errStatus struct {
	code int
	msg  string
}

func (e *errStatus) Error() string { return e.msg }

// FetchRuntimeInfo reads the runtimeinfo endpoint at url.
func FetchRuntimeInfo(ctx context.Context, client *http.Client, url string) (RuntimeInfo, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return RuntimeInfo{}, fmt.Errorf("runtimeinfo request: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return RuntimeInfo{}, fmt.Errorf("runtimeinfo: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return RuntimeInfo{}, fmt.Errorf("runtimeinfo: reading response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return RuntimeInfo{}, &errStatus{code: resp.StatusCode, msg: fmt.Sprintf("runtimeinfo: %s: %s", resp.Status, excerpt(body))}
	}
	var envelope struct {
		Status string       `json:"status"`
		Data   *RuntimeInfo `json:"data"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil {
		return RuntimeInfo{}, fmt.Errorf("runtimeinfo: decoding response: %w", err)
	}
	if envelope.Status != "success" || envelope.Data == nil {
		return RuntimeInfo{}, fmt.Errorf("runtimeinfo: unexpected response: %s", excerpt(body))
	}
	return *envelope.Data, nil
}

// confirmed reports whether info shows a successful load at or after since. Prometheus
// reports whole seconds, so since is truncated to the second.
func (info RuntimeInfo) confirmed(since time.Time) error {
	if !info.ReloadConfigSuccess {
		return fmt.Errorf("prometheus reports the configuration reload failed (last successful load %s)",
			info.LastConfigTime.Format(time.RFC3339))
	}
	if info.LastConfigTime.Before(since.Truncate(time.Second)) {
		return fmt.Errorf("prometheus's last successful load (%s) predates the reload request (%s)",
			info.LastConfigTime.Format(time.RFC3339), since.Format(time.RFC3339))
	}
	return nil
}

// excerpt shortens a response body for an error message.
func excerpt(b []byte) string {
	const max = 512
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
