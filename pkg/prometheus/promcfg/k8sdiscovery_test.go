//lint:file-ignore SA1019 Prometheus discovers the core/v1 Endpoints these tests serve

package promcfg_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	promconfig "github.com/prometheus/common/config"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery"
	"github.com/prometheus/prometheus/discovery/kubernetes"
	"github.com/prometheus/prometheus/discovery/targetgroup"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/scrape"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
)

// This file runs Prometheus's own Kubernetes service discovery (the code Prometheus runs,
// with its informers, label selectors and metadata joins) against a small in-memory API
// server on loopback, then Prometheus's own target pipeline (scrape.PopulateLabels and
// scrape.NewTarget) over what it discovered. Nothing about discovery is imitated: which
// objects the API server returns for a label selector is decided with the API server's
// own selector code (k8s.io/apimachinery/pkg/labels).

// cluster is the set of objects the fake API server serves.
type cluster struct {
	nodes     []corev1.Node
	services  []corev1.Service
	endpoints []corev1.Endpoints
	slices    []discoveryv1.EndpointSlice
	pods      []corev1.Pod
}

// fakeAPI serves list requests for the resources Prometheus's Kubernetes discovery
// reads, filtered by namespace and label selector, and keeps watch requests open without
// events. It counts the lists of each resource and the objects each returned.
type fakeAPI struct {
	c *cluster
	// auth, when set, is the Authorization header every request must carry.
	auth string

	mu     sync.Mutex
	lists  map[string]int      // resource -> list requests served
	served map[string][]string // resource -> "<ns>/<name>" of every object returned
	errs   []string
}

func (f *fakeAPI) fail(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.auth != "" && r.Header.Get("Authorization") != f.auth {
		f.fail("request %s without the expected Authorization header (got %q)", r.URL, r.Header.Get("Authorization"))
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	// /api/v1/[namespaces/<ns>/]<resource>, /apis/discovery.k8s.io/v1/[namespaces/<ns>/]<resource>
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/api/v1/"):
		p = strings.TrimPrefix(p, "/api/v1/")
	case strings.HasPrefix(p, "/apis/discovery.k8s.io/v1/"):
		p = strings.TrimPrefix(p, "/apis/discovery.k8s.io/v1/")
	default:
		f.fail("unexpected request %s", r.URL)
		http.NotFound(w, r)
		return
	}
	ns := ""
	parts := strings.Split(p, "/")
	if len(parts) == 3 && parts[0] == "namespaces" {
		ns, parts = parts[1], parts[2:]
	}
	if len(parts) != 1 {
		f.fail("unexpected request %s", r.URL)
		http.NotFound(w, r)
		return
	}
	resource := parts[0]
	q := r.URL.Query()
	if fs := q.Get("fieldSelector"); fs != "" {
		f.fail("field selector %q on %s: not served by the fake API server", fs, resource)
	}
	if q.Get("watch") == "true" || q.Get("watch") == "1" {
		if q.Get("sendInitialEvents") == "true" {
			// No streaming lists: the reflector falls back to list and watch, as with an
			// API server that does not offer them.
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"BadRequest","code":400}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		<-r.Context().Done()
		return
	}
	sel, err := k8slabels.Parse(q.Get("labelSelector"))
	if err != nil {
		f.fail("label selector %q: %v", q.Get("labelSelector"), err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	match := func(m metav1.ObjectMeta) bool {
		return (ns == "" || m.Namespace == ns) && sel.Matches(k8slabels.Set(m.Labels))
	}
	var (
		list  any
		names []string
	)
	meta := metav1.ListMeta{ResourceVersion: "1"}
	switch resource {
	case "nodes":
		l := &corev1.NodeList{TypeMeta: metav1.TypeMeta{Kind: "NodeList", APIVersion: "v1"}, ListMeta: meta}
		for _, o := range f.c.nodes {
			if sel.Matches(k8slabels.Set(o.Labels)) {
				l.Items, names = append(l.Items, o), append(names, o.Name)
			}
		}
		list = l
	case "services":
		l := &corev1.ServiceList{TypeMeta: metav1.TypeMeta{Kind: "ServiceList", APIVersion: "v1"}, ListMeta: meta}
		for _, o := range f.c.services {
			if match(o.ObjectMeta) {
				l.Items, names = append(l.Items, o), append(names, o.Namespace+"/"+o.Name)
			}
		}
		list = l
	case "endpoints":
		l := &corev1.EndpointsList{TypeMeta: metav1.TypeMeta{Kind: "EndpointsList", APIVersion: "v1"}, ListMeta: meta}
		for _, o := range f.c.endpoints {
			if match(o.ObjectMeta) {
				l.Items, names = append(l.Items, o), append(names, o.Namespace+"/"+o.Name)
			}
		}
		list = l
	case "endpointslices":
		l := &discoveryv1.EndpointSliceList{TypeMeta: metav1.TypeMeta{Kind: "EndpointSliceList", APIVersion: "discovery.k8s.io/v1"}, ListMeta: meta}
		for _, o := range f.c.slices {
			if match(o.ObjectMeta) {
				l.Items, names = append(l.Items, o), append(names, o.Namespace+"/"+o.Name)
			}
		}
		list = l
	case "pods":
		l := &corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}, ListMeta: meta}
		for _, o := range f.c.pods {
			if match(o.ObjectMeta) {
				l.Items, names = append(l.Items, o), append(names, o.Namespace+"/"+o.Name)
			}
		}
		list = l
	default:
		f.fail("unexpected resource %q (%s)", resource, r.URL)
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.lists[resource]++
	f.served[resource] = append(f.served[resource], names...)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(list); err != nil {
		f.fail("encoding %s: %v", resource, err)
	}
}

// primary is the resource each role makes one target group of per object, and the
// prefix of the group's source.
var primary = map[kubernetes.Role]struct{ resource, source string }{
	kubernetes.RoleEndpoint:      {"endpoints", "endpoints/"},
	kubernetes.RoleEndpointSlice: {"endpointslices", "endpointslice/"},
	kubernetes.RolePod:           {"pods", "pod/"},
}

// discover runs Prometheus's Kubernetes discovery for one kubernetes_sd_configs entry
// against c and returns the target groups of the initial synchronisation. The entry's
// API server and client settings are replaced by the fake API server's.
func discover(t *testing.T, c *cluster, sd *kubernetes.SDConfig) []*targetgroup.Group {
	t.Helper()
	api := newFakeAPI(c)
	srv := httptest.NewServer(api)
	defer srv.Close()
	defer srv.CloseClientConnections()
	conf := *sd
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	conf.APIServer = promconfig.URL{URL: u}
	conf.HTTPClientConfig = promconfig.DefaultHTTPClientConfig
	return discoverWith(t, api, &conf)
}

func newFakeAPI(c *cluster) *fakeAPI {
	return &fakeAPI{c: c, lists: map[string]int{}, served: map[string][]string{}}
}

// discoverWith runs the discovery of conf, as configured, against api.
func discoverWith(t *testing.T, api *fakeAPI, conf *kubernetes.SDConfig) []*targetgroup.Group {
	t.Helper()
	api.mu.Lock()
	api.lists, api.served, api.errs = map[string]int{}, map[string][]string{}, nil
	api.mu.Unlock()
	reg := prometheus.NewRegistry()
	metrics := conf.NewDiscovererMetrics(reg, discovery.NewRefreshMetrics(reg))
	if err := metrics.Register(); err != nil {
		t.Fatal(err)
	}
	defer metrics.Unregister()
	d, err := conf.NewDiscoverer(discovery.DiscovererOptions{Logger: promslog.NewNopLogger(), Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	pr, ok := primary[conf.Role]
	if !ok {
		t.Fatalf("role %q not served by the fake API server", conf.Role)
	}
	// One list of the primary resource per namespace discovered (one for all namespaces).
	wantLists := max(len(conf.NamespaceDiscovery.Names), 1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := make(chan []*targetgroup.Group)
	go d.Run(ctx, ch)
	groups := map[string]*targetgroup.Group{}
	done := func() bool {
		api.mu.Lock()
		defer api.mu.Unlock()
		if api.lists[pr.resource] < wantLists {
			return false
		}
		// Every object listed has produced its group (the first group of an object is
		// built after every informer has synchronised, so it is complete).
		for _, n := range api.served[pr.resource] {
			if groups[pr.source+n] == nil {
				return false
			}
		}
		return true
	}
	deadline := time.After(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !done() {
		select {
		case tgs := <-ch:
			for _, g := range tgs {
				groups[g.Source] = g
			}
		case <-tick.C:
		case <-deadline:
			t.Fatalf("discovery did not deliver the groups of every listed object within 30s; lists %v, groups %d", api.lists, len(groups))
		}
	}
	api.mu.Lock()
	errs := api.errs
	api.mu.Unlock()
	for _, e := range errs {
		t.Error(e)
	}
	out := make([]*targetgroup.Group, 0, len(groups))
	for _, g := range groups {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// scrapeTarget is one target a job keeps: the URL Prometheus scrapes and the labels its
// series get (before the scraped labels are merged in).
type scrapeTarget struct {
	URL    string
	Labels map[string]string
}

func (s scrapeTarget) String() string { return s.URL + " " + fmt.Sprint(sortedPairs(s.Labels)) }

// targetsOf discovers the targets of job in c and runs Prometheus's target pipeline over
// them: the targets kept, sorted by URL and labels.
func targetsOf(t *testing.T, c *cluster, job *config.ScrapeConfig) []scrapeTarget {
	t.Helper()
	var out []scrapeTarget
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, sd := range job.ServiceDiscoveryConfigs {
		k, ok := sd.(*kubernetes.SDConfig)
		if !ok {
			t.Fatalf("job %s: service discovery %T is not Kubernetes", job.JobName, sd)
		}
		for _, g := range discover(t, c, k) {
			for _, tl := range g.Targets {
				res, err := scrape.PopulateLabels(lb, job, tl, g.Labels)
				if err != nil {
					t.Fatalf("job %s, target %v: %v", job.JobName, tl, err)
				}
				if res.IsEmpty() {
					continue
				}
				tg := scrape.NewTarget(res, job, tl, g.Labels)
				st := scrapeTarget{URL: tg.URL().String(), Labels: map[string]string{}}
				tg.LabelsRange(func(l labels.Label) { st.Labels[l.Name] = l.Value })
				out = append(out, st)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
