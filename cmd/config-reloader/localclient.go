package main

import (
	"crypto/tls"
	"net"
	"net/http"
)

// localClient is the HTTP client for the sidecar's own Prometheus (or Alertmanager),
// for the reload and the runtimeinfo requests alike. When it serves HTTPS on the pod's
// loopback (spec.web.tlsConfig) its certificate is the user's, usually issued for the
// Service's names by a CA the sidecar does not have: on a loopback address or
// localhost, which only the pod itself can reach, the certificate is not verified (as
// prometheus-config-reloader does). A request to any other host, a redirect included,
// is verified normally.
func localClient() *http.Client {
	verified := http.DefaultTransport.(*http.Transport).Clone()
	loopback := verified.Clone()
	loopback.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // loopback only, see above
	return &http.Client{Transport: loopbackTLS{verified: verified, loopback: loopback}}
}

// loopbackTLS sends HTTPS requests to loopback hosts through loopback, others through
// verified.
type loopbackTLS struct {
	verified, loopback http.RoundTripper
}

func (t loopbackTLS) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "https" && isLoopbackHost(req.URL.Hostname()) {
		return t.loopback.RoundTrip(req)
	}
	return t.verified.RoundTrip(req)
}

// isLoopbackHost reports whether host is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
