package explain

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
)

// discoveryPath reports whether path lists (or watches) one of discoveryResources, in
// its own API group: /api/v1/[namespaces/NS/]RESOURCE, or
// /apis/discovery.k8s.io/v1/[namespaces/NS/]endpointslices.
func discoveryPath(path string) bool {
	resource, _, ok := resourceOf(path)
	if !ok || !discoveryResources[resource] {
		return false
	}
	prefix := "/api/v1/"
	switch resource {
	case "endpointslices":
		prefix = "/apis/discovery.k8s.io/v1/"
	case "ingresses":
		prefix = "/apis/networking.k8s.io/v1/"
	}
	return strings.HasPrefix(path, prefix)
}

// discoveryResources are the resources Prometheus's Kubernetes discovery lists and watches
// for the roles explain follows (endpoints, endpointslice, pod, service, node, ingress;
// nodes for attach_metadata, namespaces for their metadata).
var discoveryResources = map[string]bool{
	"endpoints": true, "endpointslices": true, "pods": true, "services": true, "nodes": true, "namespaces": true, "ingresses": true,
}

// gate admits to next only the requests of this run's own discovery: those that carry
// its random bearer token, are addressed to its own listener (Host), and are GET lists or
// watches of discoveryResources. Everything else is refused and never forwarded: the
// cluster proxy behind it adds the user's credentials, and any local process can reach a
// loopback port.
type gate struct {
	token string
	host  string
	next  http.Handler
}

// newToken returns a random bearer token for one run.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making the discovery token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	want := "Bearer " + g.token
	got := r.Header.Get("Authorization")
	switch {
	case subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1:
		status(w, http.StatusUnauthorized, "explain's discovery proxy: missing or wrong token")
		return
	case r.Host != g.host:
		status(w, http.StatusForbidden, fmt.Sprintf("explain's discovery proxy: host %q is not this proxy", r.Host))
		return
	case r.Method != http.MethodGet:
		status(w, http.StatusMethodNotAllowed, fmt.Sprintf("explain's discovery proxy serves GET only, not %s", r.Method))
		return
	}
	if !discoveryPath(r.URL.Path) {
		status(w, http.StatusForbidden, fmt.Sprintf("explain's discovery proxy: %s is not a list or watch discovery reads", r.URL.Path))
		return
	}
	r.Header.Del("Authorization")
	g.next.ServeHTTP(w, r)
}
