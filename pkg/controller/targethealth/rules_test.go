package targethealth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/client_golang/prometheus/testutil"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/lookout-operator/lookout/pkg/controller/resourcestatus"
	"github.com/lookout-operator/lookout/pkg/promserver"
	"github.com/lookout-operator/lookout/pkg/selection"
)

// fakeRules serves /api/v1/rules (under prefix) like Prometheus: groups is the JSON of
// the groups.
type fakeRules struct {
	prefix   string
	groups   atomic.Value // string
	requests atomic.Int32
}

func newFakeRules(prefix, groups string) *fakeRules {
	f := &fakeRules{prefix: prefix}
	f.groups.Store(groups)
	return f
}

func (f *fakeRules) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	if r.URL.Path != f.prefix+"/api/v1/rules" {
		http.NotFound(w, r)
		return
	}
	fmt.Fprintf(w, `{"status":"success","data":{"groups":[%s]}}`, f.groups.Load())
}

const ruleUID = "0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c11"

// ruleGroup is a group of the rule file of app/object with rules given as name=health.
func ruleGroup(object, group string, evalTime float64, rules ...string) string {
	out := ""
	for i := 0; i+1 < len(rules); i += 2 {
		if out != "" {
			out += ","
		}
		lastErr := ""
		if rules[i+1] == "err" {
			lastErr = `found duplicate series for the match group {} on the right hand-side of the operation: [{a=\"1\"}, {a=\"2\"}];many-to-many matching not allowed: matching labels must be unique on one side`
		}
		out += fmt.Sprintf(`{"name":%q,"query":"x","health":%q,"lastError":"%s","type":"alerting","alerts":[{"labels":{"a":"b"},"state":"firing"}]}`, rules[i], rules[i+1], lastErr)
	}
	return fmt.Sprintf(`{"name":%q,"file":"/etc/prometheus/rules/prometheus-p-rulefiles-0/app-%s-%s.yaml","interval":1,"evaluationTime":%g,"rules":[%s]}`,
		group, object, ruleUID, evalTime, out)
}

func setupRules(t *testing.T, o resourcestatus.Owner, api *RuleAPI, objs ...client.Object) (*RulePoller, *resourcestatus.Store) {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	if err := appsv1.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	store := resourcestatus.NewStore()
	store.EnableRuleHealth()
	var vs []selection.Verdict
	for _, n := range []string{"good", "bad", "absent"} {
		vs = append(vs, selection.Verdict{Kind: "PrometheusRule", Namespace: "app", Name: n, Generation: 1, Reason: selection.Accepted})
	}
	store.Publish(o, "PrometheusRule", vs)
	metrics, err := NewRuleMetrics(nil)
	if err != nil {
		t.Fatal(err)
	}
	p := NewRules(RuleDeps{
		Store:   store,
		Lookup:  func(context.Context, resourcestatus.Owner) (*RuleAPI, error) { return api, nil },
		Pods:    fake.NewClientBuilder().WithScheme(scheme).WithObjects(objs...).Build(),
		Metrics: metrics,
	}, Config{Interval: time.Second})
	return p, store
}

func ruleMessages(store *resourcestatus.Store, o resourcestatus.Owner) map[string]string {
	out := map[string]string{}
	for _, n := range []string{"good", "bad", "absent"} {
		out[n] = resourcestatus.RulesHealthyMessage(store, "app", n, o)
	}
	return out
}

// TestRulePollTwoShards: one request per shard; a rule failing in one shard is failing,
// firing alerts add up, an object without groups is NotLoaded, and an unanswering shard
// makes the rules Unknown at the second failed poll.
func TestRulePollTwoShards(t *testing.T) {
	shard0 := newFakeRules("", ruleGroup("good", "g", 0.01, "A", "ok", "B", "ok")+","+ruleGroup("bad", "b", 0.01, "X", "ok", "Y", "ok"))
	shard1 := newFakeRules("", ruleGroup("good", "g", 0.01, "A", "ok", "B", "ok")+","+ruleGroup("bad", "b", 2.5, "X", "ok", "Y", "err")+
		`,{"name":"other","file":"/etc/prometheus/rules/x/hand-written.yaml","rules":[{"name":"Z","health":"err","lastError":"boom"}]}`)
	s0, s1 := httptest.NewServer(shard0), httptest.NewServer(shard1)
	defer s0.Close()
	defer s1.Close()
	prom := &monitoringv1.Prometheus{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "p", UID: "uid-prom"},
		Spec: monitoringv1.PrometheusSpec{CommonPrometheusFields: monitoringv1.CommonPrometheusFields{Shards: ptr.To[int32](2)}}}
	api, err := PrometheusRuleAPI(promserver.Of(prom))
	if err != nil {
		t.Fatal(err)
	}
	objs := append(statefulSets(t, prom),
		pod(t, prom, "prometheus-p-0", 0, s0.Listener.Addr().String(), true),
		pod(t, prom, "prometheus-p-shard-1-0", 1, s1.Listener.Addr().String(), true))
	p, store := setupRules(t, owner, api, objs...)
	p.PollOnce(context.Background())
	want := map[string]string{
		"good":   "True RulesEvaluating 2/2 rules evaluating, 4 firing",
		"bad":    "False RuleErrors 1/2, 4 firing: rule Y (group b): many-to-many matching not allowed: matching labels must be unique on one side; warning: group b takes longer to evaluate than its 1s interval (evaluations are skipped)",
		"absent": "Unknown NotLoaded no rule group of this object is loaded yet (the rule file is not in the running configuration, or the object has no groups)",
	}
	if got := ruleMessages(store, owner); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	if shard0.requests.Load() != 1 || shard1.requests.Load() != 1 {
		t.Fatalf("requests: shard 0 %d, shard 1 %d; want 1 each", shard0.requests.Load(), shard1.requests.Load())
	}
	if n := testutil.ToFloat64(p.Metrics.Bytes); n < 500 {
		t.Fatalf("%v bytes read counted", n)
	}

	// Y fixed: bad evaluates again.
	shard1.groups.Store(ruleGroup("good", "g", 0.01, "A", "ok", "B", "ok") + "," + ruleGroup("bad", "b", 0.01, "X", "ok", "Y", "ok"))
	p.PollOnce(context.Background())
	if got := ruleMessages(store, owner)["bad"]; got != "True RulesEvaluating 2/2 rules evaluating, 4 firing" {
		t.Fatalf("fixed: %q", got)
	}

	s1.Close()
	p.PollOnce(context.Background())
	if got := ruleMessages(store, owner)["good"]; got != want["good"] {
		t.Fatalf("after one failure: %q", got)
	}
	p.PollOnce(context.Background())
	wantUnreachable := "Unknown PrometheusUnreachable the rules API could not be asked: shard 1 (pod prometheus-p-shard-1-0): connection refused"
	if got := ruleMessages(store, owner)["good"]; got != wantUnreachable {
		t.Fatalf("after two failures: %q, want %q", got, wantUnreachable)
	}
	if ok, bad := testutil.ToFloat64(p.Metrics.Polls.WithLabelValues("ok")), testutil.ToFloat64(p.Metrics.Polls.WithLabelValues("error")); ok != 2 || bad != 2 {
		t.Fatalf("polls counted: %v ok, %v error", ok, bad)
	}
}

// TestRulePollThanosRuler: a ThanosRuler's replicas have no shard label; one ready
// replica is asked, under the route prefix, on its named port.
func TestRulePollThanosRuler(t *testing.T) {
	ruler := newFakeRules("/ruler", ruleGroup("good", "g", 0.01, "A", "ok"))
	srv := httptest.NewServer(ruler)
	defer srv.Close()
	o := resourcestatus.Owner{Resource: "thanosrulers", Namespace: "mon", Name: "r"}
	api := &RuleAPI{Namespace: "mon", UID: "uid-ruler", Scheme: "http", PortName: "web", DefaultPort: 10902, Prefix: "/ruler",
		Selector: "app.kubernetes.io/name=thanos-ruler,thanos-ruler=r", StatefulSets: []string{"thanos-ruler-r"}}
	sts := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "thanos-ruler-r", UID: "uid-sts",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "monitoring.coreos.com/v1", Kind: "ThanosRuler", Name: "r", UID: "uid-ruler", Controller: ptr.To(true)}}}}
	rulerPod := func(name, addr string, ready corev1.ConditionStatus) *corev1.Pod {
		host, portStr, _ := net.SplitHostPort(addr)
		port, _ := strconv.Atoi(portStr)
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: name, Labels: map[string]string{"app.kubernetes.io/name": "thanos-ruler", "thanos-ruler": "r"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "thanos-ruler-r", UID: "uid-sts", Controller: ptr.To(true)}}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "thanos-ruler",
				Ports: []corev1.ContainerPort{{Name: "grpc", ContainerPort: 1}, {Name: "web", ContainerPort: int32(port)}}}}},
			Status: corev1.PodStatus{PodIP: host, Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: ready}}},
		}
	}
	p, store := setupRules(t, o, api, sts,
		rulerPod("thanos-ruler-r-0", "127.0.0.1:1", corev1.ConditionFalse), // not ready: not asked
		rulerPod("thanos-ruler-r-1", srv.Listener.Addr().String(), corev1.ConditionTrue))
	p.PollOnce(context.Background())
	if got := ruleMessages(store, o)["good"]; got != "True RulesEvaluating 1/1 rules evaluating, 1 firing" {
		t.Fatalf("got %q", got)
	}
	if n := ruler.requests.Load(); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	// listenLocal: unreachable, saying why, at the second poll.
	api.LocalOnly = true
	p.PollOnce(context.Background())
	p.PollOnce(context.Background())
	if got := ruleMessages(store, o)["good"]; got != "Unknown PrometheusUnreachable the rules API could not be asked: spec.listenLocal: the web port listens on the pod's loopback only" {
		t.Fatalf("listenLocal: %q", got)
	}
}
