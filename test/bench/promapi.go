package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sort"
	"sync"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// targetsPerMonitor is how many targets the fake Prometheus API reports per monitor.
const targetsPerMonitor = 2

// The paths the fake Prometheus API serves.
const (
	pathTargets = "/api/v1/targets"
	pathPools   = "/api/v1/scrape_pools"
	pathQuery   = "/api/v1/query"
	pathRules   = "/api/v1/rules"
)

var apiPaths = []string{pathTargets, pathPools, pathQuery, pathRules}

// pathCount is what the fake API served on one path.
type pathCount struct {
	requests int
	bytes    int64
}

// apiCounts are the requests and bytes served, by path (other paths under "other").
type apiCounts map[string]pathCount

// sub returns c - old.
func (c apiCounts) sub(old apiCounts) apiCounts {
	out := apiCounts{}
	for p, v := range c {
		o := old[p]
		out[p] = pathCount{requests: v.requests - o.requests, bytes: v.bytes - o.bytes}
	}
	return out
}

// fakeAPI is the fake Prometheus API of one run.
type fakeAPI struct {
	srv    *http.Server
	sizes  map[string]int
	mu     sync.Mutex
	counts apiCounts
	// adopted is closed once the pod is controlled by the operator's StatefulSet.
	adopted chan struct{}
	stopped chan struct{}
}

// snapshot returns the counts so far.
func (f *fakeAPI) snapshot() apiCounts {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := apiCounts{}
	for p, v := range f.counts {
		out[p] = v
	}
	return out
}

func (f *fakeAPI) count(path string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.counts[path]
	c.requests++
	c.bytes += int64(n)
	f.counts[path] = c
}

// polled says whether every path that has an answer was asked at least n times.
func (f *fakeAPI) polled(n int) bool {
	c := f.snapshot()
	for p := range f.sizes {
		if c[p].requests < n {
			return false
		}
	}
	return true
}

func (f *fakeAPI) stop() {
	close(f.stopped)
	f.srv.Close()
}

// startFakePrometheusAPI serves, on loopback, Prometheus's /api/v1/targets?state=active,
// /api/v1/scrape_pools and the cost query (/api/v1/query) for the scenario's
// ServiceMonitors (targetsPerMonitor targets each, all up), and, with rule objects,
// /api/v1/rules for them, and creates a ready Pod object of the benchmark Prometheus's
// shard 0 at that address. The pollers only ask pods of the StatefulSets the Prometheus
// controls: once the operator created its StatefulSet, the pod is made its controllee.
// An operator polling target and rule health (ADR 18, 33, 34) then reads realistic
// answers, so the idle write count covers it. The answers are generated once; every
// request and byte served is counted by path.
func startFakePrometheusAPI(ctx context.Context, cl *cluster, s scenario, ruleObjs []ruleObject) (*fakeAPI, error) {
	answers := map[string][]byte{pathTargets: targetsAnswer(s), pathPools: poolsAnswer(s), pathQuery: queryAnswer(s)}
	if len(ruleObjs) > 0 {
		answers[pathRules] = rulesAnswer(ruleObjs)
	}
	f := &fakeAPI{sizes: map[string]int{}, counts: apiCounts{}, adopted: make(chan struct{}), stopped: make(chan struct{})}
	mux := http.NewServeMux()
	for p, body := range answers {
		f.sizes[p] = len(body)
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			if p == pathQuery && r.URL.Query().Get("query") != monitorcost.Query {
				w.WriteHeader(http.StatusBadRequest)
				n, _ := fmt.Fprintf(w, `{"status":"error","errorType":"bad_data","error":"the fake API answers only %s"}`, monitorcost.Query)
				f.count(p, n)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			n, _ := w.Write(body)
			f.count(p, n)
		})
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		f.count("other", 0)
		http.NotFound(w, r)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f.srv = &http.Server{Handler: mux}
	go func() { _ = f.srv.Serve(l) }()

	p := promserver.Of(&monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Name: promName, Namespace: promNamespace}})
	sel, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(p))
	if err != nil {
		f.srv.Close()
		return nil, err
	}
	podLabels := map[string]string(sel)
	podLabels[layout.ShardLabel] = "0"
	port := l.Addr().(*net.TCPAddr).Port
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: promNamespace, Name: "prometheus-" + promName + "-0", Labels: podLabels},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Image: "prometheus",
			Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: int32(port)}}}}},
	}
	if err := cl.c.Create(ctx, pod); err != nil {
		f.srv.Close()
		return nil, fmt.Errorf("creating the Prometheus pod: %w", err)
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: "127.0.0.1", PodIPs: []corev1.PodIP{{IP: "127.0.0.1"}},
		Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.Now()}}}
	if err := cl.c.Status().Update(ctx, pod); err != nil {
		f.srv.Close()
		return nil, fmt.Errorf("setting the Prometheus pod's status: %w", err)
	}
	go f.adopt(ctx, cl, client.ObjectKeyFromObject(pod))
	return f, nil
}

// adopt waits for the operator's StatefulSet of shard 0 and makes the pod its controllee,
// as the StatefulSet controller would have.
func (f *fakeAPI) adopt(ctx context.Context, cl *cluster, podKey types.NamespacedName) {
	stsKey := types.NamespacedName{Namespace: promNamespace, Name: layout.Prometheus(promName).StatefulSet(0)}
	for {
		sts := &appsv1.StatefulSet{}
		if err := cl.c.Get(ctx, stsKey, sts); err == nil {
			pod := &corev1.Pod{}
			if err := cl.c.Get(ctx, podKey, pod); err == nil {
				pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: sts.Name, UID: sts.UID,
					Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
				if err := cl.c.Update(ctx, pod); err == nil {
					close(f.adopted)
					return
				} else {
					logf("  adopting the fake Prometheus pod: %v", err)
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-f.stopped:
			return
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// describe lists the answers' sizes for the log.
func (f *fakeAPI) describe() string {
	var ps []string
	for p := range f.sizes {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	out := ""
	for _, p := range ps {
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s %s", p, bytesStr(f.sizes[p]))
	}
	return out
}
