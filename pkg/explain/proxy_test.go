package explain

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"

	"github.com/lookout-operator/lookout/pkg/render"
)

// TestClusterAPIProxy: live discovery goes through the proxy to the API server with the
// client configuration's credentials (the stand-in plays the API server here).
func TestClusterAPIProxy(t *testing.T) {
	objs, err := render.Load("default", "testdata/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	subject := sm("app", "api")
	in, err := Offline(objs, subject)
	if err != nil {
		t.Fatal(err)
	}
	var unauthenticated, served atomic.Int32
	standIn := in.API
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer s3cr3t" {
			unauthenticated.Add(1)
			status(w, http.StatusUnauthorized, "Unauthorized")
			return
		}
		served.Add(1)
		standIn.ServeHTTP(w, r)
	}))
	defer srv.Close()
	if in.API, err = NewClusterAPI(&rest.Config{Host: srv.URL, BearerToken: "s3cr3t"}); err != nil {
		t.Fatal(err)
	}
	rep, err := Explain(context.Background(), in, subject, Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if ep := only(t, rep).Endpoints[0]; !rep.OK || ep.Kept != 2 {
		t.Errorf("ok %v, endpoint %+v", rep.OK, ep)
	}
	if unauthenticated.Load() != 0 || served.Load() == 0 {
		t.Errorf("%d requests without the credentials, %d served", unauthenticated.Load(), served.Load())
	}
}
