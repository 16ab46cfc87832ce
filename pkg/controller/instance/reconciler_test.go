package instance

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/controller/outcome"
	"github.com/lookout-operator/lookout/pkg/layout"
)

// fakeKind plays an instance kind whose objects are ConfigMaps: data["paused"] is
// spec.paused, data["fail"] makes Apply fail with it, and its status is a string equal to
// data["status"], so that the lifecycle is tested without status writes.
type fakeKind struct {
	applied, forgotten []string
	outcomes           []error
}

type fakeState struct{ reconciles int }

func (k *fakeKind) Get(ctx context.Context, c client.Reader, nn types.NamespacedName) (*corev1.ConfigMap, client.Object, error) {
	cm := &corev1.ConfigMap{}
	if err := c.Get(ctx, nn, cm); err != nil {
		return nil, nil, err
	}
	return cm, cm, nil
}
func (k *fakeKind) List(ctx context.Context, c client.Reader, opts ...client.ListOption) ([]*corev1.ConfigMap, error) {
	var l corev1.ConfigMapList
	err := c.List(ctx, &l, opts...)
	return Pointers(l.Items), err
}
func (k *fakeKind) NewState(types.NamespacedName) *fakeState { return &fakeState{} }
func (k *fakeKind) Paused(cm *corev1.ConfigMap) bool         { return cm.Data["paused"] == "true" }
func (k *fakeKind) Apply(_ context.Context, cm *corev1.ConfigMap, st *fakeState) (time.Duration, error) {
	st.reconciles++
	k.applied = append(k.applied, cm.Name)
	if msg := cm.Data["fail"]; msg != "" {
		return time.Minute, outcome.Invalid(errors.New(msg))
	}
	return time.Minute, nil
}
func (k *fakeKind) Status(_ context.Context, cm *corev1.ConfigMap, _ *fakeState, result error) (string, string, error) {
	k.outcomes = append(k.outcomes, result)
	return cm.Data["status"], cm.Data["status"], nil
}
func (k *fakeKind) Forget(nn types.NamespacedName) { k.forgotten = append(k.forgotten, nn.Name) }

func newFake(t *testing.T, cfg Config, objs ...client.Object) (*Reconciler[*corev1.ConfigMap, fakeState, string], *fakeKind, *events.FakeRecorder, *prometheus.Registry) {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg, "Alertmanager")
	if err != nil {
		t.Fatal(err)
	}
	rec := events.NewFakeRecorder(10)
	k := &fakeKind{}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	r := New[*corev1.ConfigMap, fakeState, string](Deps{Client: c, Metrics: m, Recorder: rec}, &cfg, Info{Kind: "Alertmanager", Resource: "alertmanagers", Paused: "paused by the test"}, k)
	return r, k, rec, reg
}

func cm(name string, data map[string]string, annotations map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Annotations: annotations}, Data: data}
}

func run(t *testing.T, r *Reconciler[*corev1.ConfigMap, fakeState, string], name string) (reconcile.Result, error) {
	t.Helper()
	return r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "ns", Name: name}})
}

func TestLifecycle(t *testing.T) {
	r, k, rec, reg := newFake(t, Config{ControllerID: "me"},
		cm("ok", nil, map[string]string{layout.ControllerIDAnnotation: "me"}),
		cm("paused", map[string]string{"paused": "true"}, map[string]string{layout.ControllerIDAnnotation: "me"}),
		cm("broken", map[string]string{"fail": "spec.x is wrong"}, map[string]string{layout.ControllerIDAnnotation: "me"}),
		cm("other", nil, nil))

	res, err := run(t, r, "ok")
	if err != nil || res.RequeueAfter != time.Minute {
		t.Fatalf("ok: %v %v", res, err)
	}
	if _, err := run(t, r, "paused"); err != nil {
		t.Fatal(err)
	}
	var n *outcome.Note
	if last := k.outcomes[len(k.outcomes)-1]; !errors.As(last, &n) || n.Reason != outcome.ReasonPaused || n.Message != "paused by the test" {
		t.Fatalf("paused outcome %v", last)
	}
	res, err = run(t, r, "broken")
	if err == nil || err.Error() != "spec.x is wrong" || res.RequeueAfter != 0 {
		t.Fatalf("broken: %v %v", res, err)
	}
	if ev := <-rec.Events; !strings.Contains(ev, "Warning InvalidConfiguration spec.x is wrong") {
		t.Errorf("event %q", ev)
	}
	if _, err := run(t, r, "other"); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, r, "gone"); err != nil {
		t.Fatal(err)
	}
	if strings.Join(k.applied, ",") != "ok,broken" {
		t.Errorf("applied %v: a paused or unmanaged object was applied", k.applied)
	}
	if strings.Join(k.forgotten, ",") != "other,gone" {
		t.Errorf("forgotten %v", k.forgotten)
	}
	if got := r.State(types.NamespacedName{Namespace: "ns", Name: "ok"}).reconciles; got != 1 {
		t.Errorf("state of ok: %d reconciles", got)
	}
	var mapped []string
	for _, req := range r.Map("Secret", true, func(_ context.Context, inst *corev1.ConfigMap, _ client.Object) bool { return inst.Name != "paused" })(context.Background(), cm("x", nil, nil)) {
		mapped = append(mapped, req.Name)
	}
	if strings.Join(mapped, ",") != "broken,ok" {
		t.Errorf("mapped to %v, want the managed objects keep passes", mapped)
	}
	if reqs := r.Map("Secret", true, func(context.Context, *corev1.ConfigMap, client.Object) bool { return true })(context.Background(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere"}}); len(reqs) != 0 {
		t.Errorf("mapped across namespaces: %v", reqs)
	}
	want := `
# HELP lookout_alertmanager_reconcile_failures_total Reconciles of an Alertmanager that failed, by reason.
# TYPE lookout_alertmanager_reconcile_failures_total counter
lookout_alertmanager_reconcile_failures_total{name="broken",namespace="ns",reason="InvalidConfiguration"} 1
# HELP lookout_alertmanager_reconciled 1 when the last reconcile of an Alertmanager succeeded (its Reconciled condition is True), 0 otherwise.
# TYPE lookout_alertmanager_reconciled gauge
lookout_alertmanager_reconciled{name="broken",namespace="ns"} 0
lookout_alertmanager_reconciled{name="ok",namespace="ns"} 1
lookout_alertmanager_reconciled{name="paused",namespace="ns"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "lookout_alertmanager_reconciled", "lookout_alertmanager_reconcile_failures_total"); err != nil {
		t.Error(err)
	}
}

// TestMetricNames: the Prometheus controller keeps the names it always had; every other
// kind's are prefixed with the kind.
func TestMetricNames(t *testing.T) {
	cases := map[string][]string{
		"Prometheus":      {"lookout_managed_resources", "lookout_prometheus_config_bytes", "lookout_reconcile_failures_total", "lookout_prometheus_reconciled"},
		"PrometheusAgent": {"lookout_prometheus_agent_managed_resources", "lookout_prometheus_agent_config_bytes", "lookout_prometheus_agent_reconcile_failures_total", "lookout_prometheus_agent_reconciled"},
		"Alertmanager":    {"lookout_alertmanager_managed_resources", "lookout_alertmanager_config_bytes", "lookout_alertmanager_reconcile_failures_total", "lookout_alertmanager_reconciled"},
		"ThanosRuler":     {"lookout_thanos_ruler_managed_resources", "lookout_thanos_ruler_config_bytes", "lookout_thanos_ruler_reconcile_failures_total", "lookout_thanos_ruler_reconciled"},
	}
	for kind, want := range cases {
		got := []string{metricName(kind, "managed_resources", false), metricName(kind, "config_bytes", true), metricName(kind, "reconcile_failures_total", false), metricName(kind, "reconciled", true)}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: %v, want %v", kind, got, want)
		}
	}
}
