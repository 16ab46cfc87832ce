package promcfg_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/config"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/scrape"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
