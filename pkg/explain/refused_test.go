package explain

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/render"
)

// TestRefusedListIsNamed: a list the API server refuses ends discovery with the API
// server's message (which names the permission), not with an empty result.
func TestRefusedListIsNamed(t *testing.T) {
	objs, err := render.Load("default", "testdata/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	subject := sm("app", "api")
	in, err := Offline(objs, subject)
	if err != nil {
		t.Fatal(err)
	}
	standIn := in.API
	in.API = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if res, ns, _ := resourceOf(r.URL.Path); res == "endpoints" {
			status(w, http.StatusForbidden, `endpoints is forbidden: User "alice" cannot list resource "endpoints" in API group "" in the namespace "`+ns+`"`)
			return
		}
		standIn.ServeHTTP(w, r)
	})
	start := time.Now()
	rep, err := Explain(context.Background(), in, subject, Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ep := only(t, rep).Endpoints[0]
	want := `discovery (role endpoints in namespaces app): the API server refused to list endpoints (HTTP 403): endpoints is forbidden: User "alice" cannot list resource "endpoints" in API group "" in the namespace "app"`
	if ep.Error != want || rep.OK {
		t.Errorf("error %q\nwant  %q", ep.Error, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s: a refusal should end discovery at once", d)
	}
	if !strings.Contains(ep.Error, `cannot list resource "endpoints"`) {
		t.Error("the permission is not named")
	}
}
