package resourcestatus

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/rulehealth"
	"github.com/lookout-operator/lookout/pkg/selection"
)

var rulerA = Owner{Resource: "thanosrulers", Namespace: "mon", Name: "ruler"}

func ruleVerdict(name string, r selection.Reason) selection.Verdict {
	return selection.Verdict{Kind: "PrometheusRule", Namespace: "app", Name: name, Generation: 1, Reason: r}
}

// ruleFile is the path a Prometheus shows for the rule file of app/name.
func ruleFile(name string) string {
	return "/etc/prometheus/rules/prometheus-a-rulefiles-0/app-" + name + "-0b0e1d5c-3a7f-4c3e-9a59-2f1f8c0f5c11.yaml"
}

// ruleSnapshot is one shard's answer: for each object name, its rules' health ("ok",
// "err", "unknown") with the error err, and firing[name] firing alerts on its first rule.
func ruleSnapshot(evalTime float64, err string, objects map[string][]string, firing map[string]int) *rulehealth.Snapshot {
	s := rulehealth.NewSnapshot()
	s.Shard()
	for name, healths := range objects {
		g := rulehealth.Group{Name: "g", File: ruleFile(name), Interval: 30, EvaluationTime: evalTime}
		for i, h := range healths {
			r := rulehealth.Rule{Name: "R" + string(rune('A'+i)), Health: h}
			if h == "err" {
				r.LastError = err
			}
			if i == 0 {
				for range firing[name] {
					r.Alerts = append(r.Alerts, rulehealth.Alert{State: "firing"})
				}
			}
			g.Rules = append(g.Rules, r)
		}
		s.AddGroup(g)
	}
	return s
}

const manyToMany = `found duplicate series for the match group {} on the right hand-side of the operation: [{__name__="y", a="%s"}, {__name__="y", a="2"}];many-to-many matching not allowed: matching labels must be unique on one side`

// TestPublishRuleHealthQueuesOnlyChanges: a poll queues the accepted PrometheusRules
// whose rule health changed, and nothing when only evaluation times or the series in an
// error changed.
func TestPublishRuleHealthQueuesOnlyChanges(t *testing.T) {
	s := NewStore()
	s.EnableRuleHealth()
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("PrometheusRule").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	s.Publish(promA, "PrometheusRule", []selection.Verdict{ruleVerdict("a", selection.Accepted), ruleVerdict("b", selection.Accepted), ruleVerdict("bad", selection.InvalidConfiguration)})
	s.Publish(promA, "ServiceMonitor", nil)
	s.Publish(rulerA, "PrometheusRule", []selection.Verdict{ruleVerdict("a", selection.Accepted)})
	drain(q)
	if got := s.RuleHealthOwners(); len(got) != 2 || got[0] != promA || got[1] != rulerA {
		t.Fatalf("rule health owners %v", got)
	}
	err1 := strings.Replace(manyToMany, "%s", "1", 1)
	s.PublishRuleHealth(promA, ruleSnapshot(0.01, err1, map[string][]string{"a": {"ok", "ok"}, "b": {"ok", "err"}}, nil))
	if got := drain(q); len(got) != 2 || !got["a"] || !got["b"] {
		t.Fatalf("first poll queued %v, want a and b (not the rejected one)", got)
	}
	// Other evaluation times, other series in the error: nothing to write.
	err3 := strings.Replace(manyToMany, "%s", "3", 1)
	s.PublishRuleHealth(promA, ruleSnapshot(0.02, err3, map[string][]string{"a": {"ok", "ok"}, "b": {"ok", "err"}}, nil))
	if got := drain(q); len(got) != 0 {
		t.Fatalf("unchanged poll queued %v", got)
	}
	// Alerts start firing in a: a is written.
	s.PublishRuleHealth(promA, ruleSnapshot(0.02, err3, map[string][]string{"a": {"ok", "ok"}, "b": {"ok", "err"}}, map[string]int{"a": 3}))
	if got := drain(q); len(got) != 1 || !got["a"] {
		t.Fatalf("queued %v, want a", got)
	}
	// b is fixed.
	s.PublishRuleHealth(promA, ruleSnapshot(0.02, "", map[string][]string{"a": {"ok", "ok"}, "b": {"ok", "ok"}}, map[string]int{"a": 3}))
	if got := drain(q); len(got) != 1 || !got["b"] {
		t.Fatalf("queued %v, want b", got)
	}
	if got := RulesHealthyMessage(s, "app", "a", promA); got != "True RulesEvaluating 2/2 rules evaluating, 3 firing" {
		t.Errorf("a: %q", got)
	}
	if got := RulesHealthyMessage(s, "app", "b", promA); got != "True RulesEvaluating 2/2 rules evaluating" {
		t.Errorf("b: %q", got)
	}
	// The ThanosRuler has not been polled: its binding keeps what it has.
	if _, report, keep := s.healthOf("PrometheusRule", types.NamespacedName{Namespace: "app", Name: "a"})(rulerA); report || !keep {
		t.Fatalf("an owner not polled yet: report %v keep %v", report, keep)
	}
	// Monitors have no rule health, PrometheusRules no target health.
	if h, report, _ := s.healthOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report {
		t.Fatalf("a ServiceMonitor got %+v", h)
	}
	s.Forget(promA)
	if _, report, _ := s.healthOf("PrometheusRule", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report {
		t.Fatal("a forgotten owner still has rule health")
	}
}

// TestRuleHealthOffWithoutPoller: without EnableRuleHealth, PrometheusRule bindings
// carry no RulesHealthy condition, even when target health is on.
func TestRuleHealthOffWithoutPoller(t *testing.T) {
	s := NewStore()
	s.EnableHealth()
	s.Publish(promA, "PrometheusRule", []selection.Verdict{ruleVerdict("a", selection.Accepted)})
	s.PublishRuleHealth(promA, ruleSnapshot(0, "", map[string][]string{"a": {"ok"}}, nil))
	if _, report, keep := s.healthOf("PrometheusRule", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report || keep {
		t.Fatalf("report %v keep %v", report, keep)
	}
}

func ruleReconciler(t *testing.T, c client.Client, store *Store, applies *atomic.Int32) *Reconciler {
	t.Helper()
	for _, k := range Kinds {
		if k.Name == "PrometheusRule" {
			return New(Deps{Client: &countingClient{Client: c, applies: applies}, Store: store, Clock: clocktesting.NewFakeClock(t0.Time),
				Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, k)
		}
	}
	t.Fatal("no PrometheusRule kind")
	return nil
}

// TestReconcileWritesRuleHealthOnce: the status reconciler applies the RulesHealthy
// condition once, not again for the same health, and a restarted operator rewrites
// nothing before its first poll.
func TestReconcileWritesRuleHealthOnce(t *testing.T) {
	ctx := context.Background()
	pr := &monitoringv1.PrometheusRule{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(pr).WithStatusSubresource(pr).Build()
	newStore := func() *Store {
		s := NewStore()
		s.EnableHealth()
		s.EnableRuleHealth()
		s.Publish(promA, "PrometheusRule", []selection.Verdict{ruleVerdict("x", selection.Accepted)})
		return s
	}
	store := newStore()
	var applies atomic.Int32
	r := ruleReconciler(t, c, store, &applies)
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	reconcileTwice := func(r *Reconciler) {
		t.Helper()
		for range 2 {
			if _, err := r.Reconcile(ctx, req); err != nil {
				t.Fatal(err)
			}
		}
	}
	reconcileTwice(r) // Accepted only: no poll yet
	store.PublishRuleHealth(promA, ruleSnapshot(0.01, strings.Replace(manyToMany, "%s", "1", 1), map[string][]string{"x": {"ok", "err"}}, nil))
	reconcileTwice(r)
	got := &monitoringv1.PrometheusRule{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 2 {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	want := "1/2: rule RB (group g): many-to-many matching not allowed: matching labels must be unique on one side"
	if h := got.Status.Bindings[0].Conditions[1]; h.Type != "RulesHealthy" || h.Status != "False" || h.Reason != "RuleErrors" || h.Message != want {
		t.Fatalf("RulesHealthy %+v", h)
	}
	if n := applies.Load(); n != 2 {
		t.Fatalf("%d status applies, want 2 (Accepted, then RulesHealthy)", n)
	}
	// A restart: a new store, verdicts published, no poll yet; then the same health.
	store = newStore()
	r = ruleReconciler(t, c, store, &applies)
	reconcileTwice(r)
	store.PublishRuleHealth(promA, ruleSnapshot(0.5, strings.Replace(manyToMany, "%s", "7", 1), map[string][]string{"x": {"ok", "err"}}, nil))
	reconcileTwice(r)
	if n := applies.Load(); n != 2 {
		t.Fatalf("%d status applies after a restart, want still 2", n)
	}
}

// rulesRefusingClient refuses, as the API server with prometheus-operator's CRDs does, a
// status that holds a RulesHealthy condition.
type rulesRefusingClient struct{ client.Client }

func (c rulesRefusingClient) Status() client.SubResourceWriter {
	return rulesRefusingStatus{c.Client.Status()}
}

type rulesRefusingStatus struct{ client.SubResourceWriter }

func (s rulesRefusingStatus) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	b, _ := json.Marshal(obj)
	if strings.Contains(string(b), "RulesHealthy") {
		return apierrors.NewInvalid(schema.GroupKind{Group: "monitoring.coreos.com", Kind: "PrometheusRule"}, "x", field.ErrorList{
			field.NotSupported(field.NewPath("status", "bindings").Index(0).Child("conditions").Index(1).Child("type"), "RulesHealthy", []string{"Accepted"})})
	}
	return s.SubResourceWriter.Apply(ctx, obj, opts...)
}

// TestUpstreamCRDTurnsRuleHealthOff: with prometheus-operator's PrometheusRule CRD the
// first refused write turns rule health off and the binding is written without it.
func TestUpstreamCRDTurnsRuleHealthOff(t *testing.T) {
	ctx := context.Background()
	pr := &monitoringv1.PrometheusRule{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(pr).WithStatusSubresource(pr).Build()
	store := NewStore()
	store.EnableHealth()
	store.EnableRuleHealth()
	store.Publish(promA, "PrometheusRule", []selection.Verdict{ruleVerdict("x", selection.Accepted)})
	store.PublishRuleHealth(promA, ruleSnapshot(0, "", map[string][]string{"x": {"ok"}}, nil))
	var applies atomic.Int32
	r := ruleReconciler(t, rulesRefusingClient{c}, store, &applies)
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	got := &monitoringv1.PrometheusRule{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 1 || got.Status.Bindings[0].Conditions[0].Type != monitoringv1.Accepted {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
}
