package reloader

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// These cover the error paths of the protocol; the main paths run against a real
// Prometheus in prometheus_test.go.

// TestHTTPTriggerErrors: the answer to the POST decides.
func TestHTTPTriggerErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		reload  http.HandlerFunc
		wantErr string
	}{
		{"ok", func(http.ResponseWriter, *http.Request) {}, ""},
		{"reload 500", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "failed to reload config: bad", http.StatusInternalServerError)
		}, "failed to reload config: bad"},
		{"lifecycle disabled", func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "Lifecycle API is not enabled.", http.StatusForbidden)
		}, "403"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			mux := http.NewServeMux()
			mux.HandleFunc("POST /-/reload", tc.reload)
			srv := httptest.NewServer(mux)
			defer srv.Close()
			tr := &HTTPTrigger{ReloadURL: srv.URL + "/-/reload"}
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
