//lint:file-ignore SA1019 tests set deprecated API fields that Lookout still honours

package promcfg_test

import (
	"fmt"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/discovery/kubernetes"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/scrape"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// These tests run Prometheus's own target-label pipeline (scrape.PopulateLabels: scrape
// labels, relabel_configs, meta-label removal, instance default) over targets shaped like
// what Kubernetes service discovery produces, and assert the final target labels.

// k8sTarget describes one discovered address.
type k8sTarget struct {
	ns, service, pod, container, port, podPort, addr, phase string
	podPortNumber                                           int
	serviceLabels, podLabels                                map[string]string
	targetKind                                              string // "Pod" (default) or "Node"
}

func (t k8sTarget) endpointsLabels(metaEP string) model.LabelSet {
	ls := model.LabelSet{
		"__address__":                          model.LabelValue(t.addr),
		"__meta_kubernetes_namespace":          model.LabelValue(t.ns),
		"__meta_kubernetes_service_name":       model.LabelValue(t.service),
		model.LabelName(metaEP + "_port_name"): model.LabelValue(t.port),
	}
	kind := t.targetKind
	if kind == "" {
		kind = "Pod"
	}
	ls[model.LabelName(metaEP+"_address_target_kind")] = model.LabelValue(kind)
	ls[model.LabelName(metaEP+"_address_target_name")] = model.LabelValue(t.pod)
	for k, v := range t.serviceLabels {
		ls[model.LabelName("__meta_kubernetes_service_label_"+sanitize(k))] = model.LabelValue(v)
		ls[model.LabelName("__meta_kubernetes_service_labelpresent_"+sanitize(k))] = "true"
	}
	if kind == "Pod" {
		t.addPodLabels(ls)
	}
	return ls
}

func (t k8sTarget) podLabelsSet() model.LabelSet {
	ls := model.LabelSet{
		"__address__":                 model.LabelValue(t.addr),
		"__meta_kubernetes_namespace": model.LabelValue(t.ns),
	}
	t.addPodLabels(ls)
	return ls
}

func (t k8sTarget) addPodLabels(ls model.LabelSet) {
	phase := t.phase
	if phase == "" {
		phase = "Running"
	}
	ls["__meta_kubernetes_pod_name"] = model.LabelValue(t.pod)
	ls["__meta_kubernetes_pod_container_name"] = model.LabelValue(t.container)
	ls["__meta_kubernetes_pod_phase"] = model.LabelValue(phase)
	ls["__meta_kubernetes_pod_container_port_name"] = model.LabelValue(t.podPort)
	if t.podPortNumber != 0 {
		ls["__meta_kubernetes_pod_container_port_number"] = model.LabelValue(fmt.Sprint(t.podPortNumber))
	}
	for k, v := range t.podLabels {
		ls[model.LabelName("__meta_kubernetes_pod_label_"+sanitize(k))] = model.LabelValue(v)
		ls[model.LabelName("__meta_kubernetes_pod_labelpresent_"+sanitize(k))] = "true"
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			return r
		}
		return '_'
	}, s)
}

// loadJobs generates and loads a config, expanding $(SHARD) to shard.
func loadJobs(t *testing.T, p *monitoringv1.Prometheus, sms []*SM, pms []*PM, shard int) map[string]*config.ScrapeConfig {
	t.Helper()
	res, err := generate(p, sms, pms)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range res.Verdicts {
		if !v.Used() {
			t.Fatalf("rejected: %s", v.Message)
		}
	}
	text := strings.NewReplacer("$(SHARD)", fmt.Sprint(shard), "$(POD_NAME)", "prometheus-k8s-0").Replace(string(res.Config))
	cfg, err := config.Load(text, nil)
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[string]*config.ScrapeConfig{}
	for _, job := range cfg.ScrapeConfigs {
		jobs[job.JobName] = job
	}
	return jobs
}

// finalLabels runs Prometheus's pipeline; nil means dropped.
func finalLabels(t *testing.T, job *config.ScrapeConfig, target model.LabelSet) map[string]string {
	t.Helper()
	lb := labels.NewBuilder(labels.EmptyLabels())
	res, err := scrape.PopulateLabels(lb, job, target, nil)
	if err != nil {
		t.Fatalf("PopulateLabels: %v", err)
	}
	if res.IsEmpty() {
		return nil
	}
	out := map[string]string{}
	res.Range(func(l labels.Label) {
		if !strings.HasPrefix(l.Name, "__") {
			out[l.Name] = l.Value
		}
	})
	return out
}

func assertLabels(t *testing.T, got map[string]string, want map[string]string) {
	t.Helper()
	if got == nil {
		t.Fatalf("target dropped, want %v", want)
	}
	if fmt.Sprint(sortedPairs(got)) != fmt.Sprint(sortedPairs(want)) {
		t.Errorf("final labels\n  got:  %v\n  want: %v", sortedPairs(got), sortedPairs(want))
	}
}

func sortedPairs(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

var appTarget = k8sTarget{
	ns: "default", service: "app", pod: "app-7d9f-abcde", container: "server", port: "web", podPort: "http",
	addr: "10.1.2.3:8080", serviceLabels: map[string]string{"app": "app", "team": "payments", "app.kubernetes.io/name": "shop"},
	podLabels: map[string]string{"app": "app", "zone": "eu-1", "version": "v2"},
}

func TestSemanticServiceMonitorLabels(t *testing.T) {
	for _, role := range []struct {
		name   string
		metaEP string
		prom   *monitoringv1.Prometheus
	}{
		{"endpoints", "__meta_kubernetes_endpoint", prom()},
		{"endpointslice", "__meta_kubernetes_endpointslice", prom(func(p *P) { p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) })},
	} {
		t.Run(role.name, func(t *testing.T) {
			jobs := loadJobs(t, role.prom, []*SM{sm("app")}, nil, 0)
			job := jobs["serviceMonitor/default/app/0"]
			assertLabels(t, finalLabels(t, job, appTarget.endpointsLabels(role.metaEP)), map[string]string{
				"job": "app", "namespace": "default", "service": "app", "pod": "app-7d9f-abcde",
				"container": "server", "endpoint": "web", "instance": "10.1.2.3:8080",
			})
			other := appTarget
			other.port = "admin"
			if got := finalLabels(t, job, other.endpointsLabels(role.metaEP)); got != nil {
				t.Errorf("target on another port kept: %v", got)
			}
			unrelated := appTarget
			unrelated.serviceLabels = map[string]string{"app": "other"}
			if got := finalLabels(t, job, unrelated.endpointsLabels(role.metaEP)); got != nil {
				t.Errorf("service not matching the selector kept: %v", got)
			}
			failed := appTarget
			failed.phase = "Succeeded"
			if got := finalLabels(t, job, failed.endpointsLabels(role.metaEP)); got != nil {
				t.Errorf("completed pod kept: %v", got)
			}
			node := appTarget
			node.targetKind, node.pod = "Node", "worker-1"
			assertLabels(t, finalLabels(t, job, node.endpointsLabels(role.metaEP)), map[string]string{
				"job": "app", "namespace": "default", "service": "app", "node": "worker-1", "endpoint": "web", "instance": "10.1.2.3:8080",
			})
		})
	}
}

func TestSemanticServiceMonitorOptions(t *testing.T) {
	m := sm("app", func(s *SM) {
		s.Spec.JobLabel = "app.kubernetes.io/name"
		s.Spec.TargetLabels = []string{"team", "missing"}
		s.Spec.PodTargetLabels = []string{"zone"}
		s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{
			rl("replace", []string{"__meta_kubernetes_pod_label_version"}, "", "version", ""),
			rl("replace", nil, "", "namespace", "spoofed"),
		}
	})
	p := prom(func(p *P) {
		p.Spec.PodTargetLabels = []string{"version"}
		p.Spec.EnforcedNamespaceLabel = "namespace"
	})
	job := loadJobs(t, p, []*SM{m}, nil, 0)["serviceMonitor/default/app/0"]
	assertLabels(t, finalLabels(t, job, appTarget.endpointsLabels("__meta_kubernetes_endpoint")), map[string]string{
		"job": "shop", "namespace": "default", "service": "app", "pod": "app-7d9f-abcde", "container": "server",
		"endpoint": "web", "instance": "10.1.2.3:8080", "team": "payments", "zone": "eu-1", "version": "v2",
	})

	// Selector expressions: In, NotIn, Exists, DoesNotExist.
	sel := sm("app", func(s *SM) {
		s.Spec.Selector.MatchLabels = nil
		s.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{
			{Key: "team", Operator: "In", Values: []string{"payments", "search"}},
			{Key: "env", Operator: "NotIn", Values: []string{"dev"}},
			{Key: "app", Operator: "Exists"},
			{Key: "legacy", Operator: "DoesNotExist"},
		}
	})
	job = loadJobs(t, prom(), []*SM{sel}, nil, 0)["serviceMonitor/default/app/0"]
	cases := []struct {
		labels map[string]string
		keep   bool
	}{
		{map[string]string{"team": "payments", "app": "x"}, true},
		{map[string]string{"team": "search", "app": "x", "env": "prod"}, true},
		{map[string]string{"team": "payments", "app": "x", "env": "dev"}, false},
		{map[string]string{"team": "other", "app": "x"}, false},
		{map[string]string{"team": "payments"}, false},
		{map[string]string{"team": "payments", "app": "x", "legacy": ""}, false},
	}
	for _, c := range cases {
		tg := appTarget
		tg.serviceLabels = c.labels
		got := finalLabels(t, job, tg.endpointsLabels("__meta_kubernetes_endpoint"))
		if (got != nil) != c.keep {
			t.Errorf("service labels %v: kept=%v, want %v", c.labels, got != nil, c.keep)
		}
	}

	// targetPort number filters on the container port.
	tp := sm("app", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("8080") }))
	job = loadJobs(t, prom(), []*SM{tp}, nil, 0)["serviceMonitor/default/app/0"]
	withPort := appTarget
	withPort.podPortNumber = 8080
	assertLabels(t, finalLabels(t, job, withPort.endpointsLabels("__meta_kubernetes_endpoint")), map[string]string{
		"job": "app", "namespace": "default", "service": "app", "pod": "app-7d9f-abcde", "container": "server", "endpoint": "8080", "instance": "10.1.2.3:8080",
	})
	withPort.podPortNumber = 9090
	if got := finalLabels(t, job, withPort.endpointsLabels("__meta_kubernetes_endpoint")); got != nil {
		t.Errorf("target with another container port kept: %v", got)
	}
}

func TestSemanticPodMonitorLabels(t *testing.T) {
	m := pm("worker", func(p *PM) {
		p.Spec.Selector.MatchLabels = map[string]string{"app": "app"}
		p.Spec.PodMetricsEndpoints[0].Port = ptr("http")
		p.Spec.PodTargetLabels = []string{"zone"}
	})
	job := loadJobs(t, prom(), nil, []*PM{m}, 0)["podMonitor/default/worker/0"]
	assertLabels(t, finalLabels(t, job, appTarget.podLabelsSet()), map[string]string{
		"job": "default/worker", "namespace": "default", "pod": "app-7d9f-abcde", "container": "server",
		"endpoint": "http", "instance": "10.1.2.3:8080", "zone": "eu-1",
	})
	other := appTarget
	other.podLabels = map[string]string{"app": "else"}
	if got := finalLabels(t, job, other.podLabelsSet()); got != nil {
		t.Errorf("pod not matching the selector kept: %v", got)
	}
	m.Spec.JobLabel = "app"
	m.Generation++
	job = loadJobs(t, prom(), nil, []*PM{m}, 0)["podMonitor/default/worker/0"]
	if got := finalLabels(t, job, appTarget.podLabelsSet()); got["job"] != "app" {
		t.Errorf("jobLabel not applied: %v", got)
	}
}

// TestSemanticSharding proves the shards partition the targets: every target is kept by
// exactly one shard, and a target with __tmp_disable_sharding by all of them.
func TestSemanticSharding(t *testing.T) {
	const shards = 3
	p := prom(func(p *P) { p.Spec.Shards = ptr(int32(shards)) })
	m := sm("app")
	var jobs []*config.ScrapeConfig
	for s := 0; s < shards; s++ {
		jobs = append(jobs, loadJobs(t, p, []*SM{m}, nil, s)["serviceMonitor/default/app/0"])
	}
	counts := make([]int, shards)
	for i := 0; i < 600; i++ {
		tg := appTarget
		tg.addr = fmt.Sprintf("10.0.%d.%d:8080", i/250, i%250)
		owners := 0
		for s, job := range jobs {
			if finalLabels(t, job, tg.endpointsLabels("__meta_kubernetes_endpoint")) != nil {
				owners++
				counts[s]++
			}
		}
		if owners != 1 {
			t.Fatalf("target %s kept by %d shards, want exactly 1", tg.addr, owners)
		}
	}
	for s, c := range counts {
		if c < 120 {
			t.Errorf("shard %d got %d of 600 targets: the hash does not spread", s, c)
		}
	}

	// A user relabeling can disable sharding for a target: every shard keeps it.
	m = sm("app", ep(func(e *EP) {
		e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "__tmp_disable_sharding", "true")}
	}))
	for s := 0; s < shards; s++ {
		job := loadJobs(t, p, []*SM{m}, nil, s)["serviceMonitor/default/app/0"]
		if finalLabels(t, job, appTarget.endpointsLabels("__meta_kubernetes_endpoint")) == nil {
			t.Errorf("shard %d dropped a target with __tmp_disable_sharding set", s)
		}
	}

	// A user-set __tmp_hash shards by that value instead of the address: all addresses
	// of one pod land on the same shard.
	m = sm("app", ep(func(e *EP) {
		e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", []string{"__meta_kubernetes_pod_name"}, "", "__tmp_hash", "")}
	}))
	owner := -1
	for s := 0; s < shards; s++ {
		job := loadJobs(t, p, []*SM{m}, nil, s)["serviceMonitor/default/app/0"]
		for i := 0; i < 20; i++ {
			tg := appTarget
			tg.addr = fmt.Sprintf("10.9.0.%d:8080", i)
			if finalLabels(t, job, tg.endpointsLabels("__meta_kubernetes_endpoint")) != nil {
				if owner != -1 && owner != s {
					t.Fatalf("addresses of one pod split across shards %d and %d", owner, s)
				}
				owner = s
			}
		}
	}
	if owner == -1 {
		t.Fatal("no shard kept the pod's targets")
	}
}

// TestSemanticProbe: a static probe target is passed to the prober as the target
// parameter and becomes the instance label; the scrape goes to the prober.
func TestSemanticProbe(t *testing.T) {
	res, err := generateAll(goldenCase{prom: prom(), probes: []*monitoringv1.Probe{probe("web", func(p *monitoringv1.Probe) {
		p.Spec.Targets.StaticConfig.Labels = map[string]string{"env": "prod"}
	})}})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(strings.ReplaceAll(string(res.Config), "$(POD_NAME)", "p"), nil)
	if err != nil {
		t.Fatal(err)
	}
	job := cfg.ScrapeConfigs[0]
	lb := labels.NewBuilder(labels.EmptyLabels())
	got, err := scrape.PopulateLabels(lb, job, model.LabelSet{"__address__": "https://example.com"}, model.LabelSet{"env": "prod", "namespace": "default"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"__address__": "blackbox-exporter.monitoring.svc:9115", "__param_target": "https://example.com", "__param_module": "http_2xx",
		"instance": "https://example.com", "job": "probe/default/web", "env": "prod", "namespace": "default"}
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, got.Get(k), v, got)
		}
	}
}

// The tests below discover targets with Prometheus's own Kubernetes discovery from the
// objects of equivalenceCluster (see k8sdiscovery_test.go) and compare every target a job
// keeps, its scrape URL and its labels, with what prometheus-operator v0.93's configuration
// yields. The expectations are written out by hand from prometheus-operator's generator
// (pkg/prometheus/promcfg.go, generateServiceMonitorConfig and generatePodMonitorConfig);
// each case says which of its rules decides the result. A target Lookout keeps and
// prometheus-operator does not, or the other way round, or one label of difference, fails.

// equivalenceCluster: namespace default has
//   - Service app {app: app, team: payments, app.kubernetes.io/name: shop}, ports web 8080
//     and admin 9090, endpoints on the pods app-0 (Running, node worker-1) and app-1
//     (Succeeded); app-0 also has a sidecar container with port metrics 9100 that the
//     Service does not expose;
//   - Service hosts {app: app, team: infra}, port web 9100 on the node worker-1;
//   - Service manual {app: legacy} whose hand-written Endpoints and EndpointSlice are
//     labelled {app: app};
//   - Service other {app: other} on the pod other-0 {app: other};
//   - Service lookalike {app: shopXv1} on an address without a pod.
//
// Namespace other-ns has Service app {app: app} on its own pod app-0.
func equivalenceCluster() *cluster {
	c := &cluster{}
	c.nodes = []corev1.Node{{
		ObjectMeta: metav1.ObjectMeta{Name: "worker-1", Labels: map[string]string{"topology.kubernetes.io/zone": "eu-1a"}},
		Status:     corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.1"}}},
	}}
	pod := func(ns, name, ip string, phase corev1.PodPhase, lbls map[string]string, containers ...corev1.Container) corev1.Pod {
		return corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "-" + name), Labels: lbls},
			Spec:       corev1.PodSpec{NodeName: "worker-1", Containers: containers},
			Status:     corev1.PodStatus{Phase: phase, PodIP: ip, HostIP: "10.0.0.1"},
		}
	}
	container := func(name string, ports ...corev1.ContainerPort) corev1.Container {
		return corev1.Container{Name: name, Image: "example/" + name, Ports: ports}
	}
	cport := func(name string, n int32) corev1.ContainerPort {
		return corev1.ContainerPort{Name: name, ContainerPort: n, Protocol: corev1.ProtocolTCP}
	}
	appLabels := map[string]string{"app": "app", "zone": "eu-1", "version": "v2"}
	c.pods = []corev1.Pod{
		pod("default", "app-0", "10.1.0.1", corev1.PodRunning, appLabels,
			container("server", cport("http", 8080), cport("admin", 9090)), container("sidecar", cport("metrics", 9100))),
		pod("default", "app-1", "10.1.0.2", corev1.PodSucceeded, appLabels,
			container("server", cport("http", 8080), cport("admin", 9090))),
		pod("default", "other-0", "10.1.0.5", corev1.PodRunning, map[string]string{"app": "other"},
			container("server", cport("http", 8080))),
		pod("other-ns", "app-0", "10.2.0.1", corev1.PodRunning, map[string]string{"app": "app"},
			container("server", cport("http", 8080))),
	}

	type addr struct {
		ip, kind, name string
		node           bool
	}
	type port struct {
		name string
		n    int32
	}
	service := func(ns, name string, svcLabels, epLabels map[string]string, addrs []addr, ports ...port) {
		c.services = append(c.services, corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: svcLabels}})
		ep := corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: epLabels}}
		sliceLabels := map[string]string{discoveryv1.LabelServiceName: name}
		for k, v := range epLabels {
			sliceLabels[k] = v
		}
		slice := discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: name + "-x1", Labels: sliceLabels},
			AddressType: discoveryv1.AddressTypeIPv4,
		}
		var sub corev1.EndpointSubset
		for _, a := range addrs {
			ea := corev1.EndpointAddress{IP: a.ip}
			se := discoveryv1.Endpoint{Addresses: []string{a.ip}, Conditions: discoveryv1.EndpointConditions{Ready: ptr(true)}}
			if a.kind != "" {
				ea.TargetRef = &corev1.ObjectReference{Kind: a.kind, Namespace: ns, Name: a.name}
				se.TargetRef = ea.TargetRef
			}
			if a.node {
				ea.NodeName, se.NodeName = ptr("worker-1"), ptr("worker-1")
			}
			sub.Addresses = append(sub.Addresses, ea)
			slice.Endpoints = append(slice.Endpoints, se)
		}
		for _, p := range ports {
			sub.Ports = append(sub.Ports, corev1.EndpointPort{Name: p.name, Port: p.n, Protocol: corev1.ProtocolTCP})
			slice.Ports = append(slice.Ports, discoveryv1.EndpointPort{Name: ptr(p.name), Port: ptr(p.n), Protocol: ptr(corev1.ProtocolTCP)})
		}
		ep.Subsets = []corev1.EndpointSubset{sub}
		c.endpoints = append(c.endpoints, ep)
		c.slices = append(c.slices, slice)
	}
	appSvc := map[string]string{"app": "app", "team": "payments", "app.kubernetes.io/name": "shop"}
	service("default", "app", appSvc, appSvc,
		[]addr{{"10.1.0.1", "Pod", "app-0", true}, {"10.1.0.2", "Pod", "app-1", true}}, port{"web", 8080}, port{"admin", 9090})
	hosts := map[string]string{"app": "app", "team": "infra"}
	service("default", "hosts", hosts, hosts, []addr{{"10.0.0.1", "Node", "worker-1", false}}, port{"web", 9100})
	service("default", "manual", map[string]string{"app": "legacy"}, map[string]string{"app": "app"},
		[]addr{{ip: "10.1.0.9"}}, port{"web", 8080})
	other := map[string]string{"app": "other"}
	service("default", "other", other, other, []addr{{"10.1.0.5", "Pod", "other-0", true}}, port{"web", 8080})
	service("default", "lookalike", map[string]string{"app": "shopXv1"}, map[string]string{"app": "shopXv1"},
		[]addr{{ip: "10.1.0.7"}}, port{"web", 8080})
	service("other-ns", "app", map[string]string{"app": "app"}, map[string]string{"app": "app"},
		[]addr{{"10.2.0.1", "Pod", "app-0", true}}, port{"web", 8080})
	return c
}

// tgt is an expected target: its scrape URL and its labels as "name=value".
func tgt(u string, kv ...string) scrapeTarget {
	st := scrapeTarget{URL: u, Labels: map[string]string{}}
	for _, p := range kv {
		k, v, _ := strings.Cut(p, "=")
		st.Labels[k] = v
	}
	return st
}

// with returns a copy of st with more (or replaced) labels; "name=" removes one.
func (st scrapeTarget) with(kv ...string) scrapeTarget {
	out := scrapeTarget{URL: st.URL, Labels: map[string]string{}}
	for k, v := range st.Labels {
		out.Labels[k] = v
	}
	for _, p := range kv {
		k, v, _ := strings.Cut(p, "=")
		if v == "" {
			delete(out.Labels, k)
			continue
		}
		out.Labels[k] = v
	}
	return out
}

func (st scrapeTarget) at(u string) scrapeTarget { c := st.with(); c.URL = u; return c }

func assertTargets(t *testing.T, got, want []scrapeTarget) {
	t.Helper()
	sort.Slice(want, func(i, j int) bool { return want[i].String() < want[j].String() })
	gs, ws := make([]string, len(got)), make([]string, len(want))
	for i := range got {
		gs[i] = got[i].String()
	}
	for i := range want {
		ws[i] = want[i].String()
	}
	if strings.Join(gs, "\n") != strings.Join(ws, "\n") {
		t.Errorf("targets differ from prometheus-operator's\n  got:\n    %s\n  want:\n    %s", strings.Join(gs, "\n    "), strings.Join(ws, "\n    "))
	}
}

// The targets of sm("app") (selector app=app, port web) in namespace default, as
// prometheus-operator labels them: job from the Service name, namespace, service, pod and
// container from the meta labels, node for a Node target, endpoint from the port.
var (
	smApp0 = tgt("http://10.1.0.1:8080/metrics", "job=app", "namespace=default", "service=app", "pod=app-0",
		"container=server", "endpoint=web", "instance=10.1.0.1:8080")
	smHosts = tgt("http://10.0.0.1:9100/metrics", "job=hosts", "namespace=default", "service=hosts", "node=worker-1",
		"endpoint=web", "instance=10.0.0.1:9100")
)

func TestEquivalenceServiceMonitor(t *testing.T) {
	c := equivalenceCluster()
	slices := func(p *P) { p.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) }
	for _, tc := range []struct {
		name string
		prom *P
		sm   *SM
		want []scrapeTarget
	}{
		{
			// keep __meta_kubernetes_endpoint_port_name=web; drop phase Failed|Succeeded
			// (app-1); the Service selector keeps app and hosts (manual's Service is
			// legacy, other is other).
			name: "port", prom: prom(), sm: sm("app"),
			want: []scrapeTarget{smApp0, smHosts},
		},
		{
			name: "port, EndpointSlice role", prom: prom(slices), sm: sm("app"),
			want: []scrapeTarget{smApp0, smHosts},
		},
		{
			name: "port, EndpointSlice role on the monitor", prom: prom(),
			sm:   sm("app", func(s *SM) { s.Spec.ServiceDiscoveryRole = ptr(monitoringv1.EndpointSliceRole) }),
			want: []scrapeTarget{smApp0, smHosts},
		},
		{
			// targetPort by name: keep __meta_kubernetes_pod_container_port_name=admin,
			// endpoint=admin (TargetPort.String()).
			name: "targetPort name", prom: prom(), sm: sm("app", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("admin") })),
			want: []scrapeTarget{smApp0.at("http://10.1.0.1:9090/metrics").with("endpoint=admin", "instance=10.1.0.1:9090")},
		},
		{
			// targetPort by number: keep __meta_kubernetes_pod_container_port_number=9100,
			// which only the sidecar's port has; Prometheus discovers it as an extra
			// target of the pod because the Service does not expose it.
			name: "targetPort number", prom: prom(), sm: sm("app", ep(func(e *EP) { e.Port = ""; e.TargetPort = intOrStr("9100") })),
			want: []scrapeTarget{smApp0.at("http://10.1.0.1:9100/metrics").with("endpoint=9100", "instance=10.1.0.1:9100", "container=sidecar")},
		},
		{
			// metrics_path, scheme (lower-cased) and params.
			name: "path, scheme, params", prom: prom(), sm: sm("app", ep(func(e *EP) {
				e.Path = "/probe"
				e.Scheme = ptr(monitoringv1.Scheme("HTTPS"))
				e.Params = map[string][]string{"module": {"http_2xx"}, "target": {"a", "b"}}
			})),
			want: []scrapeTarget{
				smApp0.at("https://10.1.0.1:8080/probe?module=http_2xx&target=a&target=b"),
				smHosts.at("https://10.0.0.1:9100/probe?module=http_2xx&target=a&target=b"),
			},
		},
		{
			// targetLabels copy Service labels (missing ones add nothing), podTargetLabels
			// of the monitor and then of the Prometheus copy pod labels, jobLabel
			// replaces job when the Service has the label.
			name: "targetLabels, podTargetLabels, jobLabel",
			prom: prom(func(p *P) { p.Spec.PodTargetLabels = []string{"version"} }),
			sm: sm("app", func(s *SM) {
				s.Spec.JobLabel = "app.kubernetes.io/name"
				s.Spec.TargetLabels = []string{"team", "missing"}
				s.Spec.PodTargetLabels = []string{"zone"}
			}),
			want: []scrapeTarget{
				smApp0.with("job=shop", "team=payments", "zone=eu-1", "version=v2"),
				smHosts.with("team=infra"),
			},
		},
		{
			// The scrape class's relabelings, then the endpoint's, then the enforced
			// namespace label (the labeler appends it after the user's rules).
			name: "relabelings, scrape class, enforced namespace label",
			prom: prom(func(p *P) {
				p.Spec.EnforcedNamespaceLabel = "tenant"
				p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "mesh", Default: ptr(true),
					Relabelings: []monitoringv1.RelabelConfig{rl("replace", nil, "", "mesh", "istio"), rl("replace", nil, "", "class", "mesh")}}}
			}),
			sm: sm("app", ep(func(e *EP) {
				e.RelabelConfigs = []monitoringv1.RelabelConfig{
					rl("replace", []string{"__meta_kubernetes_pod_label_version"}, "", "version", ""),
					rl("replace", nil, "", "mesh", "linkerd"),
					rl("replace", nil, "", "tenant", "spoofed"),
					rl("labeldrop", nil, "container", "", ""),
					rl("drop", []string{"service"}, "nothing", "", ""),
				}
			})),
			want: []scrapeTarget{
				smApp0.with("container=", "version=v2", "mesh=linkerd", "class=mesh", "tenant=default"),
				smHosts.with("mesh=linkerd", "class=mesh", "tenant=default"),
			},
		},
		{
			// attach_metadata.node: the node's labels are there for relabelings, through
			// the endpoint's nodeName or a Node target.
			name: "attachMetadata node", prom: prom(), sm: sm("app", func(s *SM) {
				s.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(true)}
				s.Spec.Endpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{
					rl("replace", []string{"__meta_kubernetes_node_label_topology_kubernetes_io_zone"}, "", "topology_zone", ""),
				}
			}),
			want: []scrapeTarget{smApp0.with("topology_zone=eu-1a"), smHosts.with("topology_zone=eu-1a")},
		},
		{
			// Without attach_metadata the node's labels are not discovered.
			name: "attachMetadata unset", prom: prom(), sm: sm("app", ep(func(e *EP) {
				e.RelabelConfigs = []monitoringv1.RelabelConfig{
					rl("replace", []string{"__meta_kubernetes_node_label_topology_kubernetes_io_zone"}, "", "topology_zone", ""),
				}
			})),
			want: []scrapeTarget{smApp0, smHosts},
		},
		{
			// RoleSelector: the selector goes to the API server for the endpoints and the
			// service roles. manual's Endpoints match, its Service does not, so its
			// target has no Service metadata: no service label, and the job label,
			// replaced with the empty Service name, is removed.
			name: "selectorMechanism RoleSelector", prom: prom(),
			sm: sm("app", func(s *SM) { s.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole) }),
			want: []scrapeTarget{smApp0, smHosts,
				tgt("http://10.1.0.9:8080/metrics", "namespace=default", "endpoint=web", "instance=10.1.0.9:8080")},
		},
		{
			name: "selectorMechanism RoleSelector, EndpointSlice role", prom: prom(slices),
			sm: sm("app", func(s *SM) { s.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole) }),
			want: []scrapeTarget{smApp0, smHosts,
				tgt("http://10.1.0.9:8080/metrics", "namespace=default", "endpoint=web", "instance=10.1.0.9:8080")},
		},
		{
			// Relabel selector with set-based requirements.
			name: "selector expressions", prom: prom(), sm: sm("app", func(s *SM) {
				s.Spec.Selector = metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "app", Operator: metav1.LabelSelectorOpIn, Values: []string{"app", "other"}},
					{Key: "team", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"infra"}},
					{Key: "app.kubernetes.io/name", Operator: metav1.LabelSelectorOpDoesNotExist},
				}}
			}),
			want: []scrapeTarget{tgt("http://10.1.0.5:8080/metrics", "job=other", "namespace=default", "service=other", "pod=other-0",
				"container=server", "endpoint=web", "instance=10.1.0.5:8080")},
		},
		{
			// Deliberate difference (ADR 11): prometheus-operator writes selector values
			// into the keep regex unescaped, so app=shop.v1 also keeps the Service
			// labelled shopXv1 (10.1.0.7:8080). Lookout matches values literally, as the
			// Kubernetes label selector (and RoleSelector, upstream too) does.
			name: "selector value with a dot (ADR 11)", prom: prom(), sm: sm("app", func(s *SM) {
				s.Spec.Selector = metav1.LabelSelector{MatchLabels: map[string]string{"app": "shop.v1"}}
			}),
			want: nil,
		},
		{
			name: "namespaceSelector matchNames", prom: prom(),
			sm: sm("app", func(s *SM) {
				s.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{MatchNames: []string{"other-ns"}}
			}),
			want: []scrapeTarget{smApp0.at("http://10.2.0.1:8080/metrics").with("namespace=other-ns", "instance=10.2.0.1:8080")},
		},
		{
			name: "namespaceSelector any", prom: prom(),
			sm:   sm("app", func(s *SM) { s.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{Any: true} }),
			want: []scrapeTarget{smApp0, smHosts, smApp0.at("http://10.2.0.1:8080/metrics").with("namespace=other-ns", "instance=10.2.0.1:8080")},
		},
		{
			// ignoreNamespaceSelectors: the monitor's own namespace whatever it selects.
			name: "ignoreNamespaceSelectors", prom: prom(func(p *P) { p.Spec.IgnoreNamespaceSelectors = true }),
			sm: sm("app", func(s *SM) {
				s.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{MatchNames: []string{"other-ns"}}
			}),
			want: []scrapeTarget{smApp0, smHosts},
		},
		{
			// filterRunning: false keeps the Succeeded pod.
			name: "filterRunning false", prom: prom(), sm: sm("app", ep(func(e *EP) { e.FilterRunning = ptr(false) })),
			want: []scrapeTarget{smApp0, smHosts, smApp0.at("http://10.1.0.2:8080/metrics").with("pod=app-1", "instance=10.1.0.2:8080")},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := loadJobs(t, tc.prom, []*SM{tc.sm}, nil, 0)["serviceMonitor/default/app/0"]
			if job == nil {
				t.Fatal("job serviceMonitor/default/app/0 not generated")
			}
			assertTargets(t, targetsOf(t, c, job), tc.want)
		})
	}
}

// TestEquivalenceSharding: with two shards, hashmod 2 of __address__ puts 10.1.0.1:8080
// on shard 0 and 10.0.0.1:9100 on shard 1 (md5, last 8 bytes), as in
// prometheus-operator's appendShardingRelabelingWithLabel; a pod monitor's targets
// 10.1.0.1:8080 and 10.1.0.1:9090 land on shard 0 and 10.1.0.1:9100 on shard 1.
func TestEquivalenceSharding(t *testing.T) {
	c := equivalenceCluster()
	p := prom(func(p *P) { p.Spec.Shards = ptr(int32(2)) })
	pmAll := pm("app", pep(func(e *PEP) { e.Port = nil }))
	pmTarget := func(u, inst, container string) scrapeTarget {
		return tgt(u, "job=default/app", "namespace=default", "pod=app-0", "container="+container, "instance="+inst)
	}
	for shard, want := range map[int]struct{ sm, pm []scrapeTarget }{
		0: {[]scrapeTarget{smApp0}, []scrapeTarget{
			pmTarget("http://10.1.0.1:8080/metrics", "10.1.0.1:8080", "server"), pmTarget("http://10.1.0.1:9090/metrics", "10.1.0.1:9090", "server")}},
		1: {[]scrapeTarget{smHosts}, []scrapeTarget{pmTarget("http://10.1.0.1:9100/metrics", "10.1.0.1:9100", "sidecar")}},
	} {
		t.Run(fmt.Sprint("shard ", shard), func(t *testing.T) {
			jobs := loadJobs(t, p, []*SM{sm("app")}, []*PM{pmAll}, shard)
			assertTargets(t, targetsOf(t, c, jobs["serviceMonitor/default/app/0"]), want.sm)
			assertTargets(t, targetsOf(t, c, jobs["podMonitor/default/app/0"]), want.pm)
		})
	}
}

// TestEquivalenceHonorLabels: honor_labels is the endpoint's honorLabels unless the
// Prometheus overrides it; honor_timestamps is false under overrideHonorTimestamps
// (prometheus-operator's AddHonorLabels and AddHonorTimestamps). Prometheus applies
// both when it merges scraped labels, after the target labels compared above.
func TestEquivalenceHonorLabels(t *testing.T) {
	for _, tc := range []struct {
		honor, override, overrideTS bool
		honorTS                     *bool
		wantLabels, wantTS          bool
	}{
		{honor: false, wantLabels: false, wantTS: true},
		{honor: true, wantLabels: true, wantTS: true},
		{honor: true, override: true, wantLabels: false, wantTS: true},
		{honorTS: ptr(false), wantTS: false},
		{honorTS: ptr(true), overrideTS: true, wantTS: false},
	} {
		p := prom(func(p *P) { p.Spec.OverrideHonorLabels = tc.override; p.Spec.OverrideHonorTimestamps = tc.overrideTS })
		s := sm("app", ep(func(e *EP) { e.HonorLabels = tc.honor; e.HonorTimestamps = tc.honorTS }))
		m := pm("app", pep(func(e *PEP) { e.HonorLabels = tc.honor; e.HonorTimestamps = tc.honorTS }))
		jobs := loadJobs(t, p, []*SM{s}, []*PM{m}, 0)
		for _, name := range []string{"serviceMonitor/default/app/0", "podMonitor/default/app/0"} {
			j := jobs[name]
			if j.HonorLabels != tc.wantLabels || j.HonorTimestamps != tc.wantTS {
				t.Errorf("%s %+v: honor_labels %v honor_timestamps %v, want %v %v", name, tc, j.HonorLabels, j.HonorTimestamps, tc.wantLabels, tc.wantTS)
			}
		}
	}
}

// The targets of pm("app") (selector app=app) in namespace default. prometheus-operator
// sets job to <namespace>/<name>, namespace, container and pod, and endpoint only from
// port or targetPort, never from portNumber.
var pmApp0HTTP = tgt("http://10.1.0.1:8080/metrics", "job=default/app", "namespace=default", "pod=app-0", "container=server", "instance=10.1.0.1:8080")

func TestEquivalencePodMonitor(t *testing.T) {
	c := equivalenceCluster()
	for _, tc := range []struct {
		name string
		prom *P
		pm   *PM
		want []scrapeTarget
	}{
		{
			// keep __meta_kubernetes_pod_container_port_name=metrics, endpoint=metrics.
			name: "port", prom: prom(), pm: pm("app"),
			want: []scrapeTarget{pmApp0HTTP.at("http://10.1.0.1:9100/metrics").with("container=sidecar", "endpoint=metrics", "instance=10.1.0.1:9100")},
		},
		{
			// keep __meta_kubernetes_pod_container_port_number=8080, no endpoint label;
			// app-1 is Succeeded.
			name: "portNumber", prom: prom(), pm: pm("app", pep(func(e *PEP) { e.Port = nil; e.PortNumber = ptr(int32(8080)) })),
			want: []scrapeTarget{pmApp0HTTP},
		},
		{
			name: "targetPort name", prom: prom(), pm: pm("app", pep(func(e *PEP) { e.Port = nil; e.TargetPort = intOrStr("admin") })),
			want: []scrapeTarget{pmApp0HTTP.at("http://10.1.0.1:9090/metrics").with("endpoint=admin", "instance=10.1.0.1:9090")},
		},
		{
			name: "targetPort number", prom: prom(), pm: pm("app", pep(func(e *PEP) { e.Port = nil; e.TargetPort = intOrStr("9090") })),
			want: []scrapeTarget{pmApp0HTTP.at("http://10.1.0.1:9090/metrics").with("endpoint=9090", "instance=10.1.0.1:9090")},
		},
		{
			// No port: every container port of the selected running pods, no endpoint.
			name: "no port", prom: prom(), pm: pm("app", pep(func(e *PEP) { e.Port = nil })),
			want: []scrapeTarget{
				pmApp0HTTP,
				pmApp0HTTP.at("http://10.1.0.1:9090/metrics").with("instance=10.1.0.1:9090"),
				pmApp0HTTP.at("http://10.1.0.1:9100/metrics").with("instance=10.1.0.1:9100", "container=sidecar"),
			},
		},
		{
			name: "path, scheme, params", prom: prom(), pm: pm("app", pep(func(e *PEP) {
				e.Port = ptr("http")
				e.Path = "/federate"
				e.Scheme = ptr(monitoringv1.Scheme("https"))
				e.Params = map[string][]string{"match[]": {`{job="a"}`}}
			})),
			want: []scrapeTarget{pmApp0HTTP.at("https://10.1.0.1:8080/federate?match%5B%5D=%7Bjob%3D%22a%22%7D").with("endpoint=http")},
		},
		{
			// podTargetLabels of the monitor, then of the Prometheus; jobLabel.
			name: "podTargetLabels, jobLabel", prom: prom(func(p *P) { p.Spec.PodTargetLabels = []string{"version"} }),
			pm: pm("app", func(m *PM) {
				m.Spec.PodMetricsEndpoints[0].Port = ptr("http")
				m.Spec.PodTargetLabels = []string{"zone", "missing"}
				m.Spec.JobLabel = "app"
			}),
			want: []scrapeTarget{pmApp0HTTP.with("endpoint=http", "job=app", "zone=eu-1", "version=v2")},
		},
		{
			name: "relabelings, scrape class, enforced namespace label",
			prom: prom(func(p *P) {
				p.Spec.EnforcedNamespaceLabel = "tenant"
				p.Spec.ScrapeClasses = []monitoringv1.ScrapeClass{{Name: "mesh", Default: ptr(true),
					Relabelings: []monitoringv1.RelabelConfig{rl("replace", nil, "", "mesh", "istio")}}}
			}),
			pm: pm("app", pep(func(e *PEP) {
				e.Port = ptr("http")
				e.RelabelConfigs = []monitoringv1.RelabelConfig{
					rl("replace", []string{"__meta_kubernetes_pod_label_version"}, "", "version", ""),
					rl("replace", nil, "", "tenant", "spoofed"),
					rl("replace", []string{"mesh"}, "(.*)", "mesh", "${1}-ambient"),
				}
			})),
			want: []scrapeTarget{pmApp0HTTP.with("endpoint=http", "version=v2", "tenant=default", "mesh=istio-ambient")},
		},
		{
			name: "attachMetadata node", prom: prom(), pm: pm("app", func(m *PM) {
				m.Spec.AttachMetadata = &monitoringv1.AttachMetadata{Node: ptr(true)}
				m.Spec.PodMetricsEndpoints[0].Port = ptr("http")
				m.Spec.PodMetricsEndpoints[0].RelabelConfigs = []monitoringv1.RelabelConfig{
					rl("replace", []string{"__meta_kubernetes_node_label_topology_kubernetes_io_zone"}, "", "topology_zone", ""),
				}
			}),
			want: []scrapeTarget{pmApp0HTTP.with("endpoint=http", "topology_zone=eu-1a")},
		},
		{
			name: "selectorMechanism RoleSelector", prom: prom(), pm: pm("app", func(m *PM) {
				m.Spec.SelectorMechanism = ptr(monitoringv1.SelectorMechanismRole)
				m.Spec.PodMetricsEndpoints[0].Port = ptr("http")
			}),
			want: []scrapeTarget{pmApp0HTTP.with("endpoint=http")},
		},
		{
			name: "namespaceSelector any, filterRunning false", prom: prom(), pm: pm("app", func(m *PM) {
				m.Spec.NamespaceSelector = monitoringv1.NamespaceSelector{Any: true}
				m.Spec.PodMetricsEndpoints[0].Port = ptr("http")
				m.Spec.PodMetricsEndpoints[0].FilterRunning = ptr(false)
			}),
			want: []scrapeTarget{
				pmApp0HTTP.with("endpoint=http"),
				pmApp0HTTP.at("http://10.1.0.2:8080/metrics").with("endpoint=http", "pod=app-1", "instance=10.1.0.2:8080"),
				pmApp0HTTP.at("http://10.2.0.1:8080/metrics").with("endpoint=http", "namespace=other-ns", "instance=10.2.0.1:8080"),
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := loadJobs(t, tc.prom, nil, []*PM{tc.pm}, 0)["podMonitor/default/app/0"]
			if job == nil {
				t.Fatal("job podMonitor/default/app/0 not generated")
			}
			assertTargets(t, targetsOf(t, c, job), tc.want)
		})
	}
}

// TestEquivalenceAPIServerConfig: with spec.apiserverConfig, prometheus-operator points
// the discovery of every monitor's job at that API server with its credentials
// (generateK8SSDConfig). Prometheus's discovery, run as configured, reaches the fake API
// server only with the token from the Secret, and finds the same targets.
func TestEquivalenceAPIServerConfig(t *testing.T) {
	api := newFakeAPI(equivalenceCluster())
	api.auth = "Bearer tok-monitoring" // Secret monitoring/auth key token
	srv := httptest.NewServer(api)
	defer srv.Close()
	defer srv.CloseClientConnections()
	p := prom(func(p *P) {
		p.Spec.APIServerConfig = &monitoringv1.APIServerConfig{
			Host:          srv.URL,
			Authorization: &monitoringv1.Authorization{SafeAuthorization: monitoringv1.SafeAuthorization{Credentials: ptr(secretKey("auth", "token"))}},
		}
	})
	jobs := loadJobs(t, p, []*SM{sm("app")}, []*PM{pm("app", pep(func(e *PEP) { e.Port = ptr("http") }))}, 0)
	for name, want := range map[string][]scrapeTarget{
		"serviceMonitor/default/app/0": {smApp0, smHosts},
		"podMonitor/default/app/0":     {pmApp0HTTP.with("endpoint=http")},
	} {
		job := jobs[name]
		var got []scrapeTarget
		lb := labels.NewBuilder(labels.EmptyLabels())
		for _, sd := range job.ServiceDiscoveryConfigs {
			for _, g := range discoverWith(t, api, sd.(*kubernetes.SDConfig)) {
				for _, tl := range g.Targets {
					res, err := scrape.PopulateLabels(lb, job, tl, g.Labels)
					if err != nil {
						t.Fatal(err)
					}
					if !res.IsEmpty() {
						tg := scrape.NewTarget(res, job, tl, g.Labels)
						st := scrapeTarget{URL: tg.URL().String(), Labels: map[string]string{}}
						tg.LabelsRange(func(l labels.Label) { st.Labels[l.Name] = l.Value })
						got = append(got, st)
					}
				}
			}
		}
		sort.Slice(got, func(i, j int) bool { return got[i].String() < got[j].String() })
		t.Run(name, func(t *testing.T) { assertTargets(t, got, want) })
	}
}

// TestEquivalenceRetainedShard: with shardRetentionPolicy Retain, the pods of a shard
// scaled away keep running with the shared configuration and their own $(SHARD); like
// prometheus-operator's __tmp_current_shard guard, every job drops every target there,
// also those __tmp_disable_sharding sends to every shard, while the active shards keep
// exactly the targets they have without the policy.
func TestEquivalenceRetainedShard(t *testing.T) {
	c := equivalenceCluster()
	retain := func(shards int32) *P {
		return prom(func(p *P) {
			p.Spec.Shards = ptr(shards)
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr(monitoringv1.RetainWhenScaledRetentionType)}
		})
	}
	everywhere := sm("app", ep(func(e *EP) {
		e.RelabelConfigs = []monitoringv1.RelabelConfig{rl("replace", nil, "", "__tmp_disable_sharding", "true")}
	}))
	for _, tc := range []struct {
		name   string
		p      *P
		sm     *SM
		shard  int
		expect []scrapeTarget
	}{
		{"two shards, shard 0", retain(2), sm("app"), 0, []scrapeTarget{smApp0}},
		{"two shards, shard 1", retain(2), sm("app"), 1, []scrapeTarget{smHosts}},
		{"two shards, retained shard 2", retain(2), sm("app"), 2, nil},
		{"sharding disabled, shard 1", retain(2), everywhere, 1, []scrapeTarget{smApp0, smHosts}},
		{"sharding disabled, retained shard 3", retain(2), everywhere, 3, nil},
		{"one shard, shard 0", retain(1), sm("app"), 0, []scrapeTarget{smApp0, smHosts}},
		{"one shard, retained shard 1", retain(1), sm("app"), 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			job := loadJobs(t, tc.p, []*SM{tc.sm}, nil, tc.shard)["serviceMonitor/default/app/0"]
			assertTargets(t, targetsOf(t, c, job), tc.expect)
		})
	}
}
