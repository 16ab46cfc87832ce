package integration

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/operator"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// fakePromAPI serves /api/v1/targets and /api/v1/scrape_pools as Prometheus does, from
// an answer the test changes.
type fakePromAPI struct {
	mu       sync.Mutex
	targets  []string // JSON objects
	pools    []string
	requests atomic.Int32
}

func (f *fakePromAPI) set(pools []string, targets ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pools, f.targets = pools, targets
}

func (f *fakePromAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch r.URL.Path {
	case "/api/v1/targets":
		fmt.Fprintf(w, `{"status":"success","data":{"activeTargets":[%s],"droppedTargets":[]}}`, strings.Join(f.targets, ","))
	case "/api/v1/scrape_pools":
		quoted := make([]string, len(f.pools))
		for i, p := range f.pools {
			quoted[i] = strconv.Quote(p)
		}
		fmt.Fprintf(w, `{"status":"success","data":{"scrapePools":[%s]}}`, strings.Join(quoted, ","))
	default:
		http.NotFound(w, r)
	}
}

func activeTarget(pool, addr, health, lastErr string) string {
	return fmt.Sprintf(`{"discoveredLabels":{"__address__":%q},"labels":{"instance":%q},"scrapePool":%q,"scrapeUrl":"http://%s/metrics","lastError":%q,"health":%q}`,
		addr, addr, pool, addr, lastErr, health)
}

func refusedAt(addr string) string {
	return `Get "http://` + addr + `/metrics": dial tcp ` + addr + `: connect: connection refused`
}

// targetsHealthy returns "<status> <reason> <message>" of the TargetsHealthy condition of
// the ServiceMonitor's binding by prom, and the binding's Accepted condition must be
// True.
func targetsHealthy(ns, name, prom string) (string, error) {
	sm := &monitoringv1.ServiceMonitor{}
	if err := k8s.Get(ctx, types.NamespacedName{Namespace: ns, Name: name}, sm); err != nil {
		return "", err
	}
	for _, b := range sm.Status.Bindings {
		if b.Name != prom {
			continue
		}
		if len(b.Conditions) != 2 || b.Conditions[0].Type != monitoringv1.Accepted || b.Conditions[0].Status != monitoringv1.ConditionTrue {
			return "", fmt.Errorf("%s: conditions %+v", name, b.Conditions)
		}
		c := b.Conditions[1]
		if c.Type != "TargetsHealthy" || c.ObservedGeneration != sm.Generation {
			return "", fmt.Errorf("%s: condition %+v", name, c)
		}
		return fmt.Sprintf("%s %s %s", c.Status, c.Reason, c.Message), nil
	}
	return "", fmt.Errorf("%s: no binding of %s among %+v", name, prom, sm.Status.Bindings)
}

// runningPrometheusPod creates the pod of shard 0 of p with the status the kubelet would
// report: ready, at addr (the fake API), its web port the fake API's port.
func runningPrometheusPod(t *testing.T, p *monitoringv1.Prometheus, addr string) {
	t.Helper()
	sel, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(promserver.Of(p)))
	if err != nil {
		t.Fatal(err)
	}
	l := map[string]string(sel)
	l[layout.ShardLabel] = "0"
	host, portStr, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portStr)
	// Owned by the operator's StatefulSet, as the StatefulSet controller makes it: the
	// poller asks only such pods.
	sts := &appsv1.StatefulSet{}
	eventually(t, 20*time.Second, "the StatefulSet", func() error {
		return k8s.Get(ctx, types.NamespacedName{Namespace: p.Namespace, Name: "prometheus-" + p.Name}, sts)
	})
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: "prometheus-" + p.Name + "-0", Labels: l,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID, Controller: ptr.To(true)}}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus",
			Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: int32(port)}}}}},
	}
	if err := k8s.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: host, PodIPs: []corev1.PodIP{{IP: host}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
	if err := k8s.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
}

// TestTargetHealth: an operator polling a fake Prometheus API (served on loopback by the
// test, behind a Pod object at that address) writes the TargetsHealthy condition of each
// ServiceMonitor with exact messages, writes nothing while nothing changes (nor when only
// an address in an error changes), writes again when the counts or the error class
// change, and kubectl's table shows the Targets column.
func TestTargetHealth(t *testing.T) {
	t.Parallel()
	ns := newNamespace(t, nil)
	reg := prometheus.NewRegistry()
	stop, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}), func(o *operator.Options) {
		o.Registry = reg
		o.TargetHealthInterval = 200 * time.Millisecond
	})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			stop()
		}
	}()

	api := &fakePromAPI{}
	pool := func(name string) string { return "serviceMonitor/" + ns + "/" + name + "/0" }
	api.set([]string{pool("healthy"), pool("refused"), pool("empty")},
		activeTarget(pool("healthy"), "10.0.0.1:8080", "up", ""),
		activeTarget(pool("healthy"), "10.0.0.2:8080", "up", ""),
		activeTarget(pool("refused"), "10.0.0.3:8080", "down", refusedAt("10.0.0.3:8080")),
		activeTarget(pool("refused"), "10.0.0.4:8080", "down", refusedAt("10.0.0.4:8080")),
	)
	srv := httptest.NewServer(api)
	defer srv.Close()

	p := newPrometheus(ns, "p", func(p *monitoringv1.Prometheus) { p.Labels = map[string]string{dedicatedLabel: ns} })
	create(t, p, newServiceMonitor(ns, "healthy"), newServiceMonitor(ns, "refused"), newServiceMonitor(ns, "empty"), newServiceMonitor(ns, "notloaded"))
	runningPrometheusPod(t, p, srv.Listener.Addr().String())

	expect := func(what string, want map[string]string) {
		t.Helper()
		eventually(t, 30*time.Second, what, func() error {
			for name, w := range want {
				got, err := targetsHealthy(ns, name, "p")
				if err != nil {
					return err
				}
				if got != w {
					return fmt.Errorf("%s: %q, want %q", name, got, w)
				}
			}
			return nil
		})
	}
	want := map[string]string{
		"healthy":   "True TargetsUp 2/2 up",
		"refused":   "False TargetsDown 0/2 up: connection refused",
		"empty":     "False NoTargets 0/0 up: no active targets (service discovery found none, or relabeling dropped them all)",
		"notloaded": "Unknown NotLoaded Prometheus does not run a configuration with this object's scrape pools yet",
	}
	expect("first health", want)

	// Nothing changes, then only the addresses in the errors change: no status write
	// over many polls.
	statusWrites := func() float64 { return writeCountsOf(reg)["ServiceMonitor/apply-status"] }
	before, requests := statusWrites(), api.requests.Load()
	time.Sleep(time.Second)
	api.set([]string{pool("healthy"), pool("refused"), pool("empty")},
		activeTarget(pool("healthy"), "10.0.0.1:8080", "up", ""),
		activeTarget(pool("healthy"), "10.0.0.2:8080", "up", ""),
		activeTarget(pool("refused"), "10.0.9.3:9090", "down", refusedAt("10.0.9.3:9090")),
		activeTarget(pool("refused"), "10.0.9.4:9090", "down", refusedAt("10.0.9.4:9090")),
	)
	time.Sleep(time.Second)
	if polls := api.requests.Load() - requests; polls < 8 {
		t.Fatalf("%d requests in 2 s at a 200 ms period, want at least 8 (two per poll)", polls)
	}
	if w := statusWrites() - before; w != 0 {
		t.Fatalf("%v ServiceMonitor status writes while the health did not change", w)
	}

	// A count and class change: written.
	api.set([]string{pool("healthy"), pool("refused"), pool("empty"), pool("notloaded")},
		activeTarget(pool("healthy"), "10.0.0.1:8080", "up", ""),
		activeTarget(pool("healthy"), "10.0.0.2:8080", "down", "server returned HTTP status 401 Unauthorized"),
		activeTarget(pool("refused"), "10.0.9.3:9090", "down", refusedAt("10.0.9.3:9090")),
		activeTarget(pool("refused"), "10.0.9.4:9090", "up", ""),
		activeTarget(pool("notloaded"), "10.0.0.5:8080", "up", ""),
	)
	want = map[string]string{
		"healthy":   "False TargetsDown 1/2 up: server returned HTTP status 401",
		"refused":   "False TargetsDown 1/2 up: connection refused",
		"empty":     want["empty"],
		"notloaded": "True TargetsUp 1/1 up",
	}
	expect("changed health", want)

	// kubectl get: the Targets column.
	hc, err := rest.HTTPClientFor(env.Config)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(env.Config.Host, "/")+"/apis/monitoring.coreos.com/v1/namespaces/"+ns+"/servicemonitors", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("table: %s %v\n%s", resp.Status, err, body)
	}
	for _, w := range []string{`"name":"Targets"`, `"notloaded"`, `"1/1 up"`, `"1/2 up: server returned HTTP status 401"`} {
		if !strings.Contains(string(body), w) {
			t.Errorf("the table lacks %s:\n%s", w, body)
		}
	}

	// The Prometheus pod goes away: after two failed polls, Unknown.
	srv.Close()
	expect("unreachable", map[string]string{
		"healthy": "Unknown PrometheusUnreachable Prometheus could not be asked for its targets: shard 0 (pod prometheus-p-0): connection refused",
	})

	// Before rolling back to prometheus-operator's CRDs: an operator started with
	// --target-health-interval=0 writes every binding without the condition.
	stop()
	stopped = true
	stop2, err := startOperator(ctx, labels.SelectorFromSet(labels.Set{dedicatedLabel: ns}))
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	eventually(t, 30*time.Second, "conditions removed", func() error {
		for _, name := range []string{"healthy", "refused", "empty", "notloaded"} {
			if err := bindingFor(ns, name, "p", monitoringv1.ConditionTrue, "Accepted", ""); err != nil {
				return err
			}
		}
		return nil
	})
}
