package targethealth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus/testutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

var owner = resourcestatus.Owner{Resource: "prometheuses", Namespace: "mon", Name: "p"}

// fakeProm serves /api/v1/targets and /api/v1/scrape_pools like Prometheus.
type fakeProm struct {
	targets, pools string
	noPools        bool
	requests       atomic.Int32
}

func (f *fakeProm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	switch r.URL.Path {
	case "/api/v1/targets":
		if r.URL.Query().Get("state") != "active" {
			http.Error(w, "want state=active", http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, `{"status":"success","data":{"activeTargets":[%s],"droppedTargets":[]}}`, f.targets)
	case "/api/v1/scrape_pools":
		if f.noPools {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, `{"status":"success","data":{"scrapePools":[%s]}}`, f.pools)
	default:
		http.NotFound(w, r)
	}
}

func target(pool, health, lastErr string) string {
	return fmt.Sprintf(`{"discoveredLabels":{"__address__":"10.0.0.1:80"},"labels":{"job":"x"},"scrapePool":%q,"health":%q,"lastError":%q}`, pool, health, lastErr)
}

func pod(t *testing.T, prom *monitoringv1.Prometheus, name string, shard int, addr string, isReady bool) *corev1.Pod {
	t.Helper()
	sel, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(promserver.Of(prom)))
	if err != nil {
		t.Fatal(err)
	}
	l := map[string]string(sel)
	l[layout.ShardLabel] = strconv.Itoa(shard)
	host, portStr, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portStr)
	status := corev1.ConditionFalse
	if isReady {
		status = corev1.ConditionTrue
	}
	names, err := promplan.StatefulSetNames(promserver.Of(prom))
	if err != nil || shard >= len(names) {
		t.Fatalf("statefulset of shard %d: %v", shard, err)
	}
	owner := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: names[shard], UID: stsUID(names[shard]), Controller: ptr.To(true)}
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: prom.Namespace, Name: name, Labels: l, OwnerReferences: []metav1.OwnerReference{owner}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus",
			Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: int32(port)}}}}},
		Status: corev1.PodStatus{PodIP: host, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}},
	}
}

func stsUID(name string) types.UID { return types.UID("uid-" + name) }

// statefulSets are prom's StatefulSets, controlled by it, as the operator makes them.
func statefulSets(t *testing.T, prom *monitoringv1.Prometheus) []client.Object {
	t.Helper()
	names, err := promplan.StatefulSetNames(promserver.Of(prom))
	if err != nil {
		t.Fatal(err)
	}
	var out []client.Object
	for _, n := range names {
		out = append(out, &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: prom.Namespace, Name: n, UID: stsUID(n),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "monitoring.coreos.com/v1", Kind: "Prometheus", Name: prom.Name, UID: prom.UID, Controller: ptr.To(true)}}}})
	}
	return out
}

func setup(t *testing.T, prom *monitoringv1.Prometheus, pods ...client.Object) (*Poller, *resourcestatus.Store) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := appsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if prom.UID == "" {
		prom.UID = "uid-prom"
	}
	pods = append(pods, statefulSets(t, prom)...)
	store := resourcestatus.NewStore()
	store.EnableHealth()
	var vs []selection.Verdict
	for _, n := range []string{"healthy", "refused", "empty", "absent"} {
		vs = append(vs, selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: n, Generation: 1, Reason: selection.Accepted})
	}
	store.Publish(owner, "ServiceMonitor", vs)
	p := New(Deps{
		Store: store,
		Lookup: func(context.Context, resourcestatus.Owner) (*promserver.Server, error) {
			return promserver.Of(prom), nil
		},
		Pods: fake.NewClientBuilder().WithScheme(scheme).WithObjects(pods...).Build(),
	}, Config{Interval: time.Second})
	return p, store
}

func messages(t *testing.T, store *resourcestatus.Store) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range []string{"healthy", "refused", "empty", "absent"} {
		out[n] = resourcestatus.TargetsHealthyMessage(store, "ServiceMonitor", "app", n, owner)
	}
	return out
}

func TestPollTwoShards(t *testing.T) {
	refused := `Get "http://10.0.0.9:80/metrics": dial tcp 10.0.0.9:80: connect: connection refused`
	shard0 := &fakeProm{
		targets: target("serviceMonitor/app/healthy/0", "up", "") + "," + target("serviceMonitor/app/refused/0", "down", refused),
		pools:   `"serviceMonitor/app/healthy/0","serviceMonitor/app/refused/0","serviceMonitor/app/empty/0"`,
	}
	shard1 := &fakeProm{
		targets: target("serviceMonitor/app/healthy/0", "up", "") + "," + target("serviceMonitor/app/refused/0", "down", refused) + "," + target("kubelet", "up", ""),
		pools:   shard0.pools,
	}
	s0, s1 := httptest.NewServer(shard0), httptest.NewServer(shard1)
	defer s0.Close()
	defer s1.Close()
	unready := httptest.NewServer(http.NotFoundHandler())
	defer unready.Close()
	prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{Shards: ptr.To[int32](2)}}}
	p, store := setup(t, prom,
		pod(t, prom, "prometheus-p-0", 0, s0.Listener.Addr().String(), true),
		pod(t, prom, "prometheus-p-1", 0, unready.Listener.Addr().String(), false), // a second replica, not ready
		pod(t, prom, "prometheus-p-shard-1-0", 1, s1.Listener.Addr().String(), true),
	)
	p.Metrics, _ = NewMetrics(nil)
	p.PollOnce(context.Background())
	if n := testutil.ToFloat64(p.Metrics.Polls.WithLabelValues("ok")); n != 1 {
		t.Fatalf("%v successful polls counted, want 1", n)
	}
	want := map[string]string{
		"healthy": "True TargetsUp 2/2 up",
		"refused": "False TargetsDown 0/2 up: connection refused",
		"empty":   "False NoTargets 0/0 up: no active targets (service discovery found none, or relabeling dropped them all)",
		"absent":  "Unknown NotLoaded Prometheus does not run a configuration with this object's scrape pools yet",
	}
	if got := messages(t, store); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if shard0.requests.Load() != 2 || shard1.requests.Load() != 2 {
		t.Fatalf("requests: shard 0 %d, shard 1 %d; want 2 each", shard0.requests.Load(), shard1.requests.Load())
	}

	// Without /api/v1/scrape_pools (an old Prometheus) a monitor without targets has none.
	shard0.noPools, shard1.noPools = true, true
	p.PollOnce(context.Background())
	if got := messages(t, store)["absent"]; got != want["empty"] {
		t.Fatalf("absent without scrape pools: %q", got)
	}

	// Shard 1 stops answering: the first failed poll keeps the last health, the second
	// reports it.
	addr := s1.Listener.Addr().String()
	s1.Close()
	p.PollOnce(context.Background())
	if got := messages(t, store)["healthy"]; got != want["healthy"] {
		t.Fatalf("after one failure: %q", got)
	}
	p.PollOnce(context.Background())
	wantUnreachable := "Unknown PrometheusUnreachable Prometheus could not be asked for its targets: shard 1 (pod prometheus-p-shard-1-0): connection refused"
	if got := messages(t, store)["healthy"]; got != wantUnreachable {
		t.Fatalf("after two failures: %q, want %q (%s)", got, wantUnreachable, addr)
	}
	if n := testutil.ToFloat64(p.Metrics.Polls.WithLabelValues("error")); n != 2 {
		t.Fatalf("%v failed polls counted, want 2", n)
	}
}

func TestPollUnreachableCases(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		prom func(*monitoringv1.Prometheus)
		pods bool
		want string
	}{
		{"no ready pod", nil, false, "shard 0: no ready pod"},
		{"listenLocal", func(p *monitoringv1.Prometheus) { p.Spec.ListenLocal = true }, true, "spec.listenLocal: the web port listens on the pod's loopback only"},
		{"basic auth", nil, true, "shard 0 (pod prometheus-p-0): server returned HTTP status 401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"}}
			if tc.prom != nil {
				tc.prom(prom)
			}
			var objs []client.Object
			if tc.pods {
				objs = append(objs, pod(t, prom, "prometheus-p-0", 0, srv.Listener.Addr().String(), true))
			}
			p, store := setup(t, prom, objs...)
			p.PollOnce(context.Background())
			p.PollOnce(context.Background())
			want := "Unknown PrometheusUnreachable Prometheus could not be asked for its targets: " + tc.want
			if got := messages(t, store)["healthy"]; got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
}

// TestPollHTTPS: with spec.web.tlsConfig the pod is asked over HTTPS (its certificate,
// made for names the operator does not know, is not verified).
func TestPollHTTPS(t *testing.T) {
	api := &fakeProm{
		targets: target("serviceMonitor/app/healthy/0", "up", ""),
		pools:   `"serviceMonitor/app/healthy/0"`,
	}
	srv := httptest.NewTLSServer(api)
	defer srv.Close()
	prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"}}
	prom.Spec.Web = &monitoringv1.PrometheusWebSpec{WebConfigFileFields: monitoringv1.WebConfigFileFields{TLSConfig: &monitoringv1.WebTLSConfig{}}}
	p, store := setup(t, prom, pod(t, prom, "prometheus-p-0", 0, srv.Listener.Addr().String(), true))
	p.PollOnce(context.Background())
	if got := messages(t, store)["healthy"]; got != "True TargetsUp 1/1 up" {
		t.Fatalf("got %q", got)
	}
	// The same server asked over HTTP fails (the scheme follows the spec).
	prom.Spec.Web = nil
	p.PollOnce(context.Background())
	p.PollOnce(context.Background())
	if got := messages(t, store)["healthy"]; got != "Unknown PrometheusUnreachable Prometheus could not be asked for its targets: shard 0 (pod prometheus-p-0): server returned HTTP status 400" {
		t.Fatalf("over HTTP: %q", got)
	}
}

// TestPollOnlyOwnPods: the poller asks only pods of the Prometheus's own StatefulSets and
// follows no redirect: a look-alike pod carrying the Prometheus's labels, and a pod that
// redirects elsewhere, send it nowhere (issue 32, item 9).
func TestPollOnlyOwnPods(t *testing.T) {
	var elsewhere atomic.Int32
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer away.Close()
	lookalike := &fakeProm{targets: target("serviceMonitor/app/healthy/0", "up", ""), pools: `"serviceMonitor/app/healthy/0"`}
	srv := httptest.NewServer(lookalike)
	defer srv.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, away.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirect.Close()

	t.Run("look-alike pod", func(t *testing.T) {
		prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"}}
		fake := pod(t, prom, "prometheus-p-0", 0, srv.Listener.Addr().String(), true)
		fake.OwnerReferences = nil
		p, store := setup(t, prom, fake)
		p.PollOnce(context.Background())
		p.PollOnce(context.Background())
		if n := lookalike.requests.Load(); n != 0 {
			t.Errorf("the look-alike pod was asked %d times", n)
		}
		if got := messages(t, store)["healthy"]; !strings.Contains(got, "shard 0: no ready pod") {
			t.Errorf("healthy: %q", got)
		}
	})
	t.Run("redirect", func(t *testing.T) {
		prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"}}
		p, store := setup(t, prom, pod(t, prom, "prometheus-p-0", 0, redirect.Listener.Addr().String(), true))
		p.PollOnce(context.Background())
		p.PollOnce(context.Background())
		if n := elsewhere.Load(); n != 0 {
			t.Errorf("the redirect was followed %d times", n)
		}
		if got := messages(t, store)["healthy"]; !strings.Contains(got, "302") {
			t.Errorf("healthy: %q", got)
		}
	})
}
