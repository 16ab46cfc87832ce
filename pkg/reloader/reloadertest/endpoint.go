package reloadertest

import (
	"encoding/json"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Endpoint is a stand-in for the reload side of Prometheus on loopback, for tests where
// what answers the reload does not matter (the reloader's own memory, or whether another
// binary accepts its arguments): every POST to a path ending in /-/reload succeeds, and
// every GET of a path ending in /api/v1/status/runtimeinfo reports a successful load
// now. Any route prefix is accepted.
type Endpoint struct {
	// URL is http://127.0.0.1:PORT, or https://127.0.0.1:PORT with a certificate for
	// 127.0.0.1 and localhost that nobody trusts.
	URL     string
	reloads atomic.Int64
}

// StartEndpoint serves an Endpoint until the test ends.
func StartEndpoint(t testing.TB, tls bool) *Endpoint {
	t.Helper()
	e := &Endpoint{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(e.serve))
	// Clients that verify certificates are refused; that is not news.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	e.URL = srv.URL
	return e
}

// Reloads is the number of reload requests served.
func (e *Endpoint) Reloads() int64 { return e.reloads.Load() }

func (e *Endpoint) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/-/reload"):
		e.reloads.Add(1)
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/api/v1/status/runtimeinfo"):
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{
			"reloadConfigSuccess": true, "lastConfigTime": time.Now().UTC().Format(time.RFC3339)}})
	default:
		http.NotFound(w, r)
	}
}
