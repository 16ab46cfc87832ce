package explain

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestGate: only this run's discovery gets through: its token, its own Host, GET lists
// and watches of the resources discovery reads; the token is not forwarded.
func TestGate(t *testing.T) {
	var forwarded []string
	g := &gate{token: "t0k", host: "127.0.0.1:4000", next: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the token was forwarded to %s", r.URL.Path)
		}
		forwarded = append(forwarded, r.Method+" "+r.URL.Path)
	})}
	cases := []struct {
		name, method, host, token, path string
		code                            int
	}{
		{"endpoints list", "GET", "", "t0k", "/api/v1/namespaces/app/endpoints", 200},
		{"endpointslices watch", "GET", "", "t0k", "/apis/discovery.k8s.io/v1/namespaces/app/endpointslices?watch=true", 200},
		{"pods, all namespaces", "GET", "", "t0k", "/api/v1/pods", 200},
		{"nodes", "GET", "", "t0k", "/api/v1/nodes", 200},
		{"no token", "GET", "", "", "/api/v1/namespaces/app/endpoints", 401},
		{"wrong token", "GET", "", "t0K", "/api/v1/namespaces/app/endpoints", 401},
		{"secrets", "GET", "", "t0k", "/api/v1/namespaces/kube-system/secrets", 403},
		{"one pod", "GET", "", "t0k", "/api/v1/namespaces/app/pods/x", 403},
		{"pods in another group", "GET", "", "t0k", "/apis/evil.example/v1/pods", 403},
		{"post", "POST", "", "t0k", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings", 405},
		{"delete", "DELETE", "", "t0k", "/api/v1/namespaces/app/pods/x", 405},
		{"foreign host", "GET", "evil.example", "t0k", "/api/v1/namespaces/app/endpoints", 403},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forwarded = nil
			r := httptest.NewRequest(c.method, "http://127.0.0.1:4000"+c.path, nil)
			if c.host != "" {
				r.Host = c.host
			}
			if c.token != "" {
				r.Header.Set("Authorization", "Bearer "+c.token)
			}
			w := httptest.NewRecorder()
			g.ServeHTTP(w, r)
			if w.Code != c.code {
				t.Fatalf("HTTP %d, want %d: %s", w.Code, c.code, w.Body)
			}
			if (c.code == 200) != (len(forwarded) == 1) {
				t.Errorf("forwarded %v", forwarded)
			}
		})
	}
}
