package reloader

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// These cover the error paths of the protocol; the main paths run against a real
// Prometheus in prometheus_test.go.

// runtimeInfoHandler reports a last load at offset from the time of the request.
func runtimeInfoHandler(success bool, offset time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `{"status":"success","data":{"reloadConfigSuccess":%t,"lastConfigTime":%q}}`,
			success, time.Now().Add(offset).UTC().Format(time.RFC3339))
	}
}

func TestHTTPTriggerErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		reload  http.HandlerFunc
		info    http.HandlerFunc
		wantErr string
	}{
		{"ok", func(http.ResponseWriter, *http.Request) {}, runtimeInfoHandler(true, 0), ""},
		{"reload 500", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "failed to reload config: bad", http.StatusInternalServerError)
		}, runtimeInfoHandler(true, 0), "failed to reload config: bad"},
		{"reported failure", func(http.ResponseWriter, *http.Request) {}, runtimeInfoHandler(false, 0), "reload failed"},
		{"stale load time", func(http.ResponseWriter, *http.Request) {}, runtimeInfoHandler(true, -time.Hour), "predates"},
		{"runtimeinfo 404", func(http.ResponseWriter, *http.Request) {}, http.NotFound, "404"},
		{"runtimeinfo garbage", func(http.ResponseWriter, *http.Request) {}, func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, "<html>")
		}, "decoding"},
		{"runtimeinfo error status", func(http.ResponseWriter, *http.Request) {}, func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `{"status":"error","error":"x"}`)
		}, "unexpected response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mux := http.NewServeMux()
			mux.HandleFunc("POST /-/reload", tc.reload)
			mux.HandleFunc("GET /api/v1/status/runtimeinfo", tc.info)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			tr := &HTTPTrigger{ReloadURL: srv.URL + "/-/reload", RuntimeInfoURL: srv.URL + "/api/v1/status/runtimeinfo"}
			err := tr.Reload(context.Background())
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestHTTPTriggerTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := (&HTTPTrigger{ReloadURL: srv.URL}).Reload(ctx)
	if err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("want a deadline error, got %v", err)
	}
}

func TestHTTPTriggerRefused(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	if err := (&HTTPTrigger{ReloadURL: url + "/-/reload"}).Reload(context.Background()); err == nil {
		t.Fatal("reload against a closed port succeeded")
	}
}
