package main

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// recorder is a RoundTripper that records that it was used.
type recorder struct{ used *string }

func (r recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	*r.used = req.URL.String()
	return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: req}, nil
}

func TestLocalClientSkipsVerificationOnlyOnLoopback(t *testing.T) {
	t.Parallel()
	for url, insecure := range map[string]bool{
		"https://localhost:9090/-/reload":                         true,
		"https://127.0.0.1:9090/-/reload":                         true,
		"https://127.1.2.3:9090/-/reload":                         true,
		"https://[::1]:9090/-/reload":                             true,
		"https://localhost:9090/prefix/api/v1/status/runtimeinfo": true,
		"http://127.0.0.1:9090/-/reload":                          false,
		"https://prometheus.svc:9090/-/reload":                    false,
		"https://10.0.0.1:9090/-/reload":                          false,
		"https://localhost.example.com:9090/-/reload":             false,
	} {
		var verified, loopback string
		rt := loopbackTLS{verified: recorder{&verified}, loopback: recorder{&loopback}}
		req, _ := http.NewRequest(http.MethodPost, url, nil)
		if _, err := rt.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if (loopback != "") != insecure || (verified != "") == insecure {
			t.Errorf("%s: sent unverified %v, want %v", url, loopback != "", insecure)
		}
	}
}

// TestLocalClientReachesLoopbackTLS: a server with a certificate nobody trusts is reached
// on loopback, by address and as localhost.
func TestLocalClientReachesLoopbackTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) }))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below
	srv.StartTLS()
	defer srv.Close()
	c := localClient()
	for _, u := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)} {
		resp, err := c.Post(u+"/-/reload", "", nil)
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		resp.Body.Close()
	}
	// The default client, which verifies, refuses the same server: the test would
	// pass for the wrong reason otherwise.
	if _, err := http.Get(srv.URL); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("unverified server accepted by a verifying client: %v", err)
	}
}
