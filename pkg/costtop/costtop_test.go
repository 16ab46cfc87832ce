package costtop

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/layout"
	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// fakeTarget is one target of a shard: its pool, instance, samples and series added.
type fakeTarget struct {
	pool, instance string
	samples, added int
}

// FakeAPI plays the API server's pod proxy in front of Prometheus pods: shards maps
// "namespace/pod:port" to the targets that pod's Prometheus scrapes. It checks the
// bearer token.
type FakeAPI struct {
	Token  string
	shards map[string][]fakeTarget
}

func (f *FakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+f.Token {
		http.Error(w, `{"kind":"Status","message":"Unauthorized"}`, http.StatusUnauthorized)
		return
	}
	// /api/v1/namespaces/NS/pods/POD:PORT/proxy/api/v1/...
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/api/v1/namespaces/"), "/", 5)
	if len(parts) != 5 || parts[1] != "pods" || parts[3] != "proxy" {
		http.NotFound(w, r)
		return
	}
	targets, ok := f.shards[parts[0]+"/"+parts[2]]
	if !ok {
		http.Error(w, `{"kind":"Status","message":"no such pod"}`, http.StatusServiceUnavailable)
		return
	}
	labelsOf := func(t fakeTarget) string { return fmt.Sprintf(`"job":"app","instance":%q`, t.instance) }
	switch "/" + parts[4] {
	case "/api/v1/targets":
		var ts []string
		for _, t := range targets {
			ts = append(ts, fmt.Sprintf(`{"labels":{%s},"scrapePool":%q,"health":"up"}`, labelsOf(t), t.pool))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"activeTargets":[%s]}}`, strings.Join(ts, ","))
	case "/api/v1/query":
		if r.URL.Query().Get("query") != monitorcost.Query {
			http.Error(w, `{"status":"error","error":"unexpected query"}`, http.StatusBadRequest)
			return
		}
		var rs []string
		for _, t := range targets {
			rs = append(rs, fmt.Sprintf(`{"metric":{"__name__":%q,%s},"value":[1,"%d"]}`, monitorcost.SamplesMetric, labelsOf(t), t.samples),
				fmt.Sprintf(`{"metric":{"__name__":%q,%s},"value":[1,"%d"]}`, monitorcost.SeriesAddedMetric, labelsOf(t), t.added))
		}
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[%s]}}`, strings.Join(rs, ","))
	default:
		http.NotFound(w, r)
	}
}

// Cluster is a fake cluster for top: a Prometheus mon/main of two shards, a one-shard
// mon/small, the pods of both (ready, web port 9090), and the API server proxying to them.
func Cluster(t *testing.T) (client.Reader, *httptest.Server) {
	t.Helper()
	main := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "main"},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{Shards: ptr.To[int32](2)}}}
	small := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "small"}}
	objs := []client.Object{main, small}
	podOf := func(p *monitoringv1.Prometheus, name string, shard int, ready corev1.ConditionStatus) *corev1.Pod {
		l, err := labels.ConvertSelectorToLabelsMap(promplan.Selector(promserver.Of(p)))
		if err != nil {
			t.Fatal(err)
		}
		l[layout.ShardLabel] = strconv.Itoa(shard)
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: p.Namespace, Name: name, Labels: l},
			Spec:   corev1.PodSpec{Containers: []corev1.Container{{Name: "prometheus", Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: 9090}}}}},
			Status: corev1.PodStatus{Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}}}
	}
	objs = append(objs,
		podOf(main, "prometheus-main-0", 0, corev1.ConditionTrue),
		podOf(main, "prometheus-main-shard-1-0", 1, corev1.ConditionTrue),
		podOf(main, "prometheus-main-shard-1-1", 1, corev1.ConditionFalse),
		podOf(small, "prometheus-small-0", 0, corev1.ConditionTrue))
	c := fake.NewClientBuilder().WithScheme(Scheme()).WithObjects(objs...).Build()
	api := &FakeAPI{Token: "s3cr3t", shards: map[string][]fakeTarget{
		"mon/prometheus-main-0:9090": {
			{"serviceMonitor/shop/api/0", "10.0.0.1:80", 5000, 10},
			{"serviceMonitor/shop/api/1", "10.0.0.1:81", 120, 0},
			{"podMonitor/batch/jobs/0", "10.0.0.2:80", 800, 800},
			{"kubelet", "10.0.0.9:10250", 999, 0},
		},
		"mon/prometheus-main-shard-1-0:9090": {
			{"serviceMonitor/shop/api/0", "10.0.1.1:80", 4000, 2},
			{"probe/shop/web", "https://shop.example", 30, 0},
		},
		"mon/prometheus-small-0:9090": {
			{"scrapeConfig/infra/nodes", "10.0.2.1:9100", 700, 1},
		},
	}}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return c, srv
}

func getter(t *testing.T, srv *httptest.Server, token string) Getter {
	t.Helper()
	g, err := ProxyGetter(&rest.Config{Host: srv.URL, BearerToken: token})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMeasure: the monitors' costs summed over both shards whatever their job label,
// read through the pod proxy with the user's credentials.
func TestMeasure(t *testing.T) {
	c, srv := Cluster(t)
	rep, err := Measure(context.Background(), c, getter(t, srv, "s3cr3t"), Options{N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Prometheuses) != 2 || rep.Failed() {
		t.Fatalf("report %+v", rep)
	}
	main := rep.Prometheuses[0]
	if main.Name != "main" || main.Shards != 2 || main.Total != (Figures{Samples: 9950, SeriesAdded: 812, MaxTargetSamples: 5000, Targets: 5}) || main.Unmatched != 2 {
		t.Errorf("main: %+v", main)
	}
	wantMonitors := []Row{
		{Kind: "ServiceMonitor", Namespace: "shop", Name: "api", Figures: Figures{Samples: 9120, SeriesAdded: 12, MaxTargetSamples: 5000, Targets: 3}},
		{Kind: "PodMonitor", Namespace: "batch", Name: "jobs", Figures: Figures{Samples: 800, SeriesAdded: 800, MaxTargetSamples: 800, Targets: 1}},
	}
	if fmt.Sprint(main.Monitors) != fmt.Sprint(wantMonitors) {
		t.Errorf("monitors %+v\nwant %+v", main.Monitors, wantMonitors)
	}
	if len(main.Namespaces) != 2 || main.Namespaces[0].Namespace != "shop" || main.Namespaces[0].Samples != 9150 || main.Namespaces[1].Namespace != "batch" {
		t.Errorf("namespaces %+v", main.Namespaces)
	}
	var out bytes.Buffer
	WriteText(&out, rep)
	for _, want := range []string{
		"Prometheus mon/main (2 shards): 9,950 samples, 812 series added per scrape, 5 targets\n",
		"9,120    12            3        5,000           ServiceMonitor shop/api\n",
		"Prometheus mon/small (1 shard): 700 samples, 1 series added per scrape, 1 targets\n",
		"700      1             1        infra\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, out.String())
		}
	}
}

// TestMeasureFailures: a Prometheus that cannot be asked is reported, not fatal; the
// API server refusing the credentials is.
func TestMeasureFailures(t *testing.T) {
	c, srv := Cluster(t)
	rep, err := Measure(context.Background(), c, getter(t, srv, "wrong"), Options{Namespace: "mon", Prometheus: "small"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Prometheuses) != 1 || !rep.Failed() || !strings.Contains(rep.Prometheuses[0].Error, "shard 0 (pod prometheus-small-0): targets: HTTP 401 Unauthorized") {
		t.Fatalf("report %+v", rep)
	}
	if _, err := Measure(context.Background(), c, getter(t, srv, "s3cr3t"), Options{Namespace: "mon", Prometheus: "absent"}); err == nil || !strings.Contains(err.Error(), "reading Prometheus mon/absent") {
		t.Fatalf("an absent Prometheus: %v", err)
	}
}

func TestProxyURL(t *testing.T) {
	base, _ := url.Parse("https://api.example:6443/prefix/")
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "prometheus-main-0"}}
	for _, tc := range []struct{ scheme, want string }{
		{"http", "https://api.example:6443/prefix/api/v1/namespaces/mon/pods/prometheus-main-0:9090/proxy/route/api/v1/query?query=x"},
		{"https", "https://api.example:6443/prefix/api/v1/namespaces/mon/pods/https:prometheus-main-0:9090/proxy/route/api/v1/query?query=x"},
	} {
		u := ProxyURL(*base, pod, tc.scheme, 9090, "/route/api/v1/query", "query=x")
		if u.String() != tc.want {
			t.Errorf("%s: %s\nwant %s", tc.scheme, u.String(), tc.want)
		}
	}
}
