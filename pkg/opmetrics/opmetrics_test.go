package opmetrics

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestControllerFamilies(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	c, err := NewController(reg, "prometheus")
	if err != nil {
		t.Fatal(err)
	}
	c.Reconciled("mon/a", 20*time.Millisecond, false)
	c.Reconciled("mon/b", 20*time.Millisecond, true)
	c.Reconciled("mon/b", 20*time.Millisecond, true)
	c.StatusUpdated(nil)
	c.StatusUpdated(errors.New("conflict"))
	c.SetResources("mon/a", "ServiceMonitor", 3, 1)
	c.SetResources("mon/b", "ServiceMonitor", 2, 0)
	c.SetReady(true)
	want := `
# HELP prometheus_operator_managed_resources Number of resources managed by the operator's controller per state (selected/rejected)
# TYPE prometheus_operator_managed_resources gauge
prometheus_operator_managed_resources{controller="prometheus",resource="ServiceMonitor",state="rejected"} 1
prometheus_operator_managed_resources{controller="prometheus",resource="ServiceMonitor",state="selected"} 5
# HELP prometheus_operator_ready 1 when the controller is ready to reconcile resources, 0 otherwise
# TYPE prometheus_operator_ready gauge
prometheus_operator_ready{controller="prometheus"} 1
# HELP prometheus_operator_reconcile_errors_total Number of errors that occurred during reconcile operations
# TYPE prometheus_operator_reconcile_errors_total counter
prometheus_operator_reconcile_errors_total{controller="prometheus"} 2
# HELP prometheus_operator_reconcile_operations_total Total number of reconcile operations
# TYPE prometheus_operator_reconcile_operations_total counter
prometheus_operator_reconcile_operations_total{controller="prometheus"} 3
# HELP prometheus_operator_status_update_errors_total Number of errors that occurred during update operations to status subresources
# TYPE prometheus_operator_status_update_errors_total counter
prometheus_operator_status_update_errors_total{controller="prometheus"} 1
# HELP prometheus_operator_status_update_operations_total Total number of update operations to status subresources
# TYPE prometheus_operator_status_update_operations_total counter
prometheus_operator_status_update_operations_total{controller="prometheus"} 2
# HELP prometheus_operator_syncs Number of objects per sync status (ok/failed)
# TYPE prometheus_operator_syncs gauge
prometheus_operator_syncs{controller="prometheus",status="failed"} 1
prometheus_operator_syncs{controller="prometheus",status="ok"} 1
`
	names := []string{"prometheus_operator_managed_resources", "prometheus_operator_ready", "prometheus_operator_reconcile_errors_total",
		"prometheus_operator_reconcile_operations_total", "prometheus_operator_status_update_errors_total",
		"prometheus_operator_status_update_operations_total", "prometheus_operator_syncs"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Fatal(err)
	}
	c.Forget("mon/b")
	afterForget := `
# HELP prometheus_operator_syncs Number of objects per sync status (ok/failed)
# TYPE prometheus_operator_syncs gauge
prometheus_operator_syncs{controller="prometheus",status="failed"} 0
prometheus_operator_syncs{controller="prometheus",status="ok"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(afterForget), "prometheus_operator_syncs"); err != nil {
		t.Fatal(err)
	}
	var nilC *Controller
	nilC.Reconciled("x", 0, true) // a nil controller records nothing and does not panic
}

func TestRequestCounter(t *testing.T) {
	reg := prometheus.NewPedanticRegistry()
	rc, err := NewRequestCounter(reg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "forbidden") {
			w.WriteHeader(http.StatusForbidden)
		}
	}))
	defer srv.Close()
	client := &http.Client{Transport: rc.Wrap(http.DefaultTransport)}
	for _, path := range []string{
		"/api/v1/secrets",                                           // list
		"/api/v1/namespaces/mon/configmaps",                         // list
		"/apis/monitoring.coreos.com/v1/servicemonitors?watch=true", // watch
		"/api/v1/namespaces/mon/secrets/one",                        // get: not counted
		"/api/v1/namespaces/mon",                                    // get of a namespace: not counted
		"/apis/monitoring.coreos.com/v1/namespaces/x/forbidden",     // failed list
	} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for name, want := range map[prometheus.Counter]float64{rc.list: 3, rc.listFailed: 1, rc.watch: 1, rc.watchFailed: 0} {
		if got := testutil.ToFloat64(name); got != want {
			t.Errorf("%s = %v, want %v", name.Desc(), got, want)
		}
	}
}
