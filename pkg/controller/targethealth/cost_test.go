package targethealth

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// costProm serves the targets, the scrape pools and the cost query of one shard: each
// target (pool, instance) has samples samples, added series added; its job label is the
// same for every monitor, as relabeling often leaves it.
type costProm struct {
	targets  []costTarget
	queries  atomic.Int32
	requests atomic.Int32
	failQ    bool
}

type costTarget struct {
	pool, instance string
	samples, added int
}

func (c costTarget) labels() string {
	return fmt.Sprintf(`"job":"app","instance":%q`, c.instance)
}

func (f *costProm) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	switch r.URL.Path {
	case "/api/v1/targets":
		var ts []string
		for _, t := range f.targets {
			ts = append(ts, fmt.Sprintf(`{"labels":{%s},"scrapePool":%q,"health":"up","lastError":""}`, t.labels(), t.pool))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"activeTargets":[%s]}}`, strings.Join(ts, ","))
	case "/api/v1/scrape_pools":
		var ps []string
		for _, t := range f.targets {
			ps = append(ps, fmt.Sprintf("%q", t.pool))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"scrapePools":[%s]}}`, strings.Join(ps, ","))
	case "/api/v1/query":
		f.queries.Add(1)
		if f.failQ || r.URL.Query().Get("query") != monitorcost.Query {
			http.Error(w, `{"status":"error","error":"bad query"}`, http.StatusBadRequest)
			return
		}
		var rs []string
		for _, t := range f.targets {
			rs = append(rs,
				fmt.Sprintf(`{"metric":{"__name__":"scrape_samples_post_metric_relabeling",%s},"value":[1,"%d"]}`, t.labels(), t.samples),
				fmt.Sprintf(`{"metric":{"__name__":"scrape_series_added",%s},"value":[1,"%d"]}`, t.labels(), t.added))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[%s]}}`, strings.Join(rs, ","))
	default:
		http.NotFound(w, r)
	}
}

// statusApplies counts the status applies of the TopMonitors condition.
type statusApplies struct {
	client.Client
	n *atomic.Int32
}

func (c statusApplies) Status() client.SubResourceWriter {
	return countingStatus{c.Client.Status(), c.n}
}

type countingStatus struct {
	client.SubResourceWriter
	n *atomic.Int32
}

func (s countingStatus) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	s.n.Add(1)
	return s.SubResourceWriter.Apply(ctx, obj, opts...)
}

// TestPollCost: two shards, the monitors' costs summed over both whatever their job
// label, three requests per shard, the Prometheus's TopMonitors condition written once
// and not again for figures that round the same.
func TestPollCost(t *testing.T) {
	shard0 := &costProm{targets: []costTarget{
		{"serviceMonitor/app/healthy/0", "10.0.0.1:80", 1000, 5},
		{"serviceMonitor/app/healthy/1", "10.0.0.1:81", 234, 0},
		{"serviceMonitor/app/refused/0", "10.0.0.2:80", 40, 40},
	}}
	shard1 := &costProm{targets: []costTarget{
		{"serviceMonitor/app/healthy/0", "10.0.1.1:80", 900, 1},
		{"kubelet", "10.0.1.9:10250", 700, 0},
	}}
	s0, s1 := httptest.NewServer(shard0), httptest.NewServer(shard1)
	defer s0.Close()
	defer s1.Close()
	limit := int64(1100)
	prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p", UID: "uid-prom", Generation: 3},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{Shards: ptr.To[int32](2), EnforcedSampleLimit: &limit}}}
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme, monitoringv1.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	objs := append(statefulSets(t, prom), prom,
		pod(t, prom, "prometheus-p-0", 0, s0.Listener.Addr().String(), true),
		pod(t, prom, "prometheus-p-shard-1-0", 1, s1.Listener.Addr().String(), true))
	c := fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).WithStatusSubresource(prom).Build()
	store := resourcestatus.NewStore()
	store.EnableHealth()
	store.EnableCost()
	var vs []selection.Verdict
	for _, n := range []string{"healthy", "refused"} {
		vs = append(vs, selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: n, Generation: 1, Reason: selection.Accepted})
	}
	store.Publish(owner, "ServiceMonitor", vs)
	var applies atomic.Int32
	p := New(Deps{
		Store: store,
		Lookup: func(ctx context.Context, o resourcestatus.Owner) (*promserver.Server, error) {
			live := &monitoringv1.Prometheus{}
			if err := c.Get(ctx, types.NamespacedName{Namespace: o.Namespace, Name: o.Name}, live); err != nil {
				return nil, err
			}
			return promserver.Of(live), nil
		},
		Pods: c,
		Cost: &Cost{Status: statusApplies{c, &applies}},
	}, Config{Interval: time.Second})
	p.PollOnce(context.Background())

	for name, want := range map[string]string{
		"healthy": "False NearSampleLimit 2,100 samples, 6 series added per scrape from 3 targets (busiest target at 90% of enforcedSampleLimit 1,100)",
		"refused": "True WithinSampleLimit 40 samples, 40 series added per scrape from 1 target (busiest target at 3% of enforcedSampleLimit 1,100)",
	} {
		if got := resourcestatus.SampleCostMessage(store, "ServiceMonitor", "app", name, nil, owner); got != want {
			t.Errorf("%s: %q\nwant %q", name, got, want)
		}
	}
	if got := resourcestatus.TargetsHealthyMessage(store, "ServiceMonitor", "app", "healthy", owner); got != "True TargetsUp 3/3 up" {
		t.Errorf("target health: %q", got)
	}
	if shard0.requests.Load() != 3 || shard1.requests.Load() != 3 {
		t.Errorf("requests: shard 0 %d, shard 1 %d; want 3 each", shard0.requests.Load(), shard1.requests.Load())
	}
	live := &monitoringv1.Prometheus{}
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "p"}, live); err != nil {
		t.Fatal(err)
	}
	wantTop := "2,200 samples, 46 series added per scrape from 2 monitors; most samples: ServiceMonitor app/healthy 2,100, ServiceMonitor app/refused 40"
	if len(live.Status.Conditions) != 1 || live.Status.Conditions[0].Type != "TopMonitors" || live.Status.Conditions[0].Message != wantTop ||
		live.Status.Conditions[0].ObservedGeneration != 3 || live.Status.Conditions[0].Reason != "SamplesMeasured" {
		t.Fatalf("conditions %+v", live.Status.Conditions)
	}
	// A wobble within the rounding: nothing written.
	shard0.targets[0].samples = 1004
	p.PollOnce(context.Background())
	if n := applies.Load(); n != 1 {
		t.Errorf("%d TopMonitors applies, want 1", n)
	}
	// The query fails: target health goes on, the last costs stand.
	shard1.failQ = true
	shard0.targets[0].samples = 5000
	p.PollOnce(context.Background())
	if got := resourcestatus.SampleCostMessage(store, "ServiceMonitor", "app", "refused", nil, owner); !strings.Contains(got, "40 samples") {
		t.Errorf("after a failed query: %q", got)
	}
	if got := resourcestatus.TargetsHealthyMessage(store, "ServiceMonitor", "app", "healthy", owner); got != "True TargetsUp 3/3 up" {
		t.Errorf("target health after a failed query: %q", got)
	}
}

// TestPollCostOff: without Deps.Cost the poll makes its two requests per shard, and
// never asks the query API.
func TestPollCostOff(t *testing.T) {
	api := &costProm{targets: []costTarget{{"serviceMonitor/app/healthy/0", "10.0.0.1:80", 10, 0}}}
	srv := httptest.NewServer(api)
	defer srv.Close()
	prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p"}}
	p, store := setup(t, prom, pod(t, prom, "prometheus-p-0", 0, srv.Listener.Addr().String(), true))
	store.EnableCost()
	p.PollOnce(context.Background())
	if api.requests.Load() != 2 || api.queries.Load() != 0 {
		t.Errorf("%d requests, %d queries; want 2 and 0", api.requests.Load(), api.queries.Load())
	}
	if got := resourcestatus.SampleCostMessage(store, "ServiceMonitor", "app", "healthy", nil, owner); got != "" {
		t.Errorf("a cost without the cost poll: %q", got)
	}
}
