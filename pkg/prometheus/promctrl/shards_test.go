package promctrl

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lookout-operator/lookout/pkg/prometheus/promplan"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/apply"
	"github.com/lookout-operator/lookout/pkg/promserver"
)

// scale sets spec.shards of Prometheus mon/name and bumps its generation.
func (f *fixture) scale(name string, shards int32) {
	f.t.Helper()
	p := &monitoringv1.Prometheus{}
	f.get(p, "mon", name)
	p.Spec.Shards = ptr.To(shards)
	p.Generation++
	if err := f.c.Update(context.Background(), p); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) reconcileResult(name string) reconcile.Result {
	f.t.Helper()
	res, err := f.r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "mon", Name: name}})
	if err != nil {
		f.t.Fatal(err)
	}
	return res
}

func (f *fixture) statefulSet(name string) (*appsv1.StatefulSet, bool) {
	f.t.Helper()
	ss := &appsv1.StatefulSet{}
	err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: name}, ss)
	if apierrors.IsNotFound(err) {
		return nil, false
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return ss, true
}

func TestShardRetentionPolicy(t *testing.T) {
	retain := func(period string) func(*monitoringv1.Prometheus) {
		return func(p *monitoringv1.Prometheus) {
			p.Spec.Shards = ptr.To(int32(2))
			p.Spec.ShardRetentionPolicy = &monitoringv1.ShardRetentionPolicy{WhenScaled: ptr.To(monitoringv1.RetainWhenScaledRetentionType)}
			if period != "" {
				p.Spec.ShardRetentionPolicy.Retain = &monitoringv1.RetainConfig{RetentionPeriod: monitoringv1.Duration(period)}
			}
		}
	}
	t.Run("retained until the deadline, then deleted", func(t *testing.T) {
		f := newFixture(t, Config{ShardRetention: true}, prom("p", retain("1h")))
		f.reconcileResult("p")
		f.scale("p", 1)
		res := f.reconcileResult("p")
		if res.RequeueAfter != time.Hour {
			t.Fatalf("RequeueAfter %v, want 1h", res.RequeueAfter)
		}
		ss, ok := f.statefulSet("prometheus-p-shard-1")
		if !ok {
			t.Fatal("the retained shard's StatefulSet was deleted")
		}
		want := f.r.Clock.Now().UTC().Add(time.Hour).Format(time.RFC3339)
		if got := ss.Annotations[promplan.DeletionDeadlineAnnotation]; got != want {
			t.Fatalf("deadline %q, want %q", got, want)
		}
		// Before the deadline: nothing written, requeued for the rest.
		before := f.totalWrites()
		f.r.Clock.(*clocktesting.FakeClock).Step(40 * time.Minute)
		if res := f.reconcileResult("p"); res.RequeueAfter != 20*time.Minute {
			t.Fatalf("RequeueAfter %v, want 20m", res.RequeueAfter)
		}
		if w := f.totalWrites() - before; w != 0 {
			t.Fatalf("%v writes before the deadline", w)
		}
		f.r.Clock.(*clocktesting.FakeClock).Step(21 * time.Minute)
		if res := f.reconcileResult("p"); res.RequeueAfter != 0 {
			t.Fatalf("RequeueAfter %v after the deletion", res.RequeueAfter)
		}
		if _, ok := f.statefulSet("prometheus-p-shard-1"); ok {
			t.Fatal("the shard outlived its deadline")
		}
	})
	t.Run("scaled back up: the deadline is dropped", func(t *testing.T) {
		f := newFixture(t, Config{ShardRetention: true}, prom("p", retain("1h")))
		f.reconcileResult("p")
		f.scale("p", 1)
		f.reconcileResult("p")
		f.scale("p", 2)
		if res := f.reconcileResult("p"); res.RequeueAfter != 0 {
			t.Fatalf("RequeueAfter %v", res.RequeueAfter)
		}
		ss, _ := f.statefulSet("prometheus-p-shard-1")
		if v, ok := ss.Annotations[promplan.DeletionDeadlineAnnotation]; ok {
			t.Fatalf("the reactivated shard still has deadline %q", v)
		}
	})
	t.Run("feature gate off: deleted at once", func(t *testing.T) {
		f := newFixture(t, Config{ShardRetention: false}, prom("p", retain("1h")))
		f.reconcileResult("p")
		f.scale("p", 1)
		f.reconcileResult("p")
		if _, ok := f.statefulSet("prometheus-p-shard-1"); ok {
			t.Fatal("the shard was retained with the PrometheusShardRetentionPolicy gate off")
		}
	})
	t.Run("Delete policy", func(t *testing.T) {
		f := newFixture(t, Config{ShardRetention: true}, prom("p", func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To(int32(2)) }))
		f.reconcileResult("p")
		f.scale("p", 1)
		f.reconcileResult("p")
		if _, ok := f.statefulSet("prometheus-p-shard-1"); ok {
			t.Fatal("the shard was retained without a Retain policy")
		}
	})
}

func TestGoverningServiceOfServiceName(t *testing.T) {
	named := func(p *monitoringv1.Prometheus) { p.Spec.ServiceName = ptr.To("mine") }
	t.Run("missing", func(t *testing.T) {
		f := newFixture(t, Config{}, prom("p", named))
		err := f.reconcile("mon", "p")
		if err == nil || !strings.Contains(err.Error(), "Service mon/mine does not exist") {
			t.Fatalf("got %v", err)
		}
		if c := f.condition("p"); c.Status != monitoringv1.ConditionFalse || c.Reason != ReasonInvalidConfiguration {
			t.Fatalf("condition %+v", c)
		}
		if _, ok := f.statefulSet("prometheus-p"); ok {
			t.Fatal("a StatefulSet was written for a Prometheus without its Service")
		}
	})
	t.Run("selects other pods", func(t *testing.T) {
		svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "mine"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "other"}}}
		f := newFixture(t, Config{}, prom("p", named), svc)
		if err := f.reconcile("mon", "p"); err == nil || !strings.Contains(err.Error(), "does not select the Prometheus pods") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("selects the pods", func(t *testing.T) {
		svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "mon", Name: "mine"}, Spec: corev1.ServiceSpec{Selector: map[string]string{"app.kubernetes.io/name": "prometheus", "prometheus": "p"}}}
		f := newFixture(t, Config{}, prom("p", named), svc)
		if err := f.reconcile("mon", "p"); err != nil {
			t.Fatal(err)
		}
		if _, ok := f.statefulSet("prometheus-p"); !ok {
			t.Fatal("no StatefulSet")
		}
		if err := f.c.Get(context.Background(), types.NamespacedName{Namespace: "mon", Name: "prometheus-operated"}, &corev1.Service{}); !apierrors.IsNotFound(err) {
			t.Fatalf("prometheus-operated written for a Prometheus with its own Service: %v", err)
		}
	})
}

// Prometheus "a" with two shards and Prometheus "a-shard-1" both name the StatefulSet
// prometheus-a-shard-1. Created after "a", "a-shard-1" is refused with a condition that
// names "a" (and creates nothing), and runs once "a" has one shard. Created before "a"
// was scaled, it keeps its StatefulSet: "a" reports the name conflict, and scaling "a"
// down never deletes the other's StatefulSet.
func TestShardNameCollision(t *testing.T) {
	t.Run("a first", func(t *testing.T) {
		f := newFixture(t, Config{}, prom("a", func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To(int32(2)) }), prom("a-shard-1"))
		if err := f.reconcile("mon", "a"); err != nil {
			t.Fatal(err)
		}
		_ = f.reconcile("mon", "a-shard-1")
		c := f.condition("a-shard-1")
		want := "the StatefulSet prometheus-a-shard-1 of this Prometheus is also shard 1 of Prometheus a (spec.shards 2): their pods would have the same names; rename this object or give a fewer shards"
		if c.Status != monitoringv1.ConditionFalse || c.Message != want {
			t.Fatalf("a-shard-1: %+v, want False with %q", c, want)
		}
		ss, ok := f.statefulSet("prometheus-a-shard-1")
		if !ok || len(ss.OwnerReferences) != 1 || ss.OwnerReferences[0].Name != "a" {
			t.Fatalf("shard 1 of a is not a's: %v", ss)
		}
		f.scale("a", 1)
		if err := f.reconcile("mon", "a"); err != nil {
			t.Fatal(err)
		}
		if err := f.reconcile("mon", "a-shard-1"); err != nil {
			t.Fatal(err)
		}
		if c := f.condition("a-shard-1"); c.Status != monitoringv1.ConditionTrue {
			t.Fatalf("a-shard-1 after a went to one shard: %+v", c)
		}
	})
	t.Run("a-shard-1 first", func(t *testing.T) {
		b := prom("a-shard-1")
		f := newFixture(t, Config{}, b, prom("a"))
		if err := f.reconcile("mon", "a-shard-1"); err != nil {
			t.Fatal(err)
		}
		f.scale("a", 2)
		if err := f.reconcile("mon", "a"); !apply.IsNotOwned(err) {
			t.Fatalf("want a name conflict for shard 1 of a, got %v", err)
		}
		if err := f.reconcile("mon", "a-shard-1"); err != nil {
			t.Fatalf("a-shard-1 lost its StatefulSet: %v", err)
		}
		f.scale("a", 1)
		if err := f.reconcile("mon", "a"); err != nil {
			t.Fatal(err)
		}
		ss, ok := f.statefulSet("prometheus-a-shard-1")
		if !ok || !ownedBy(ss, promserver.Of(b)) {
			t.Fatalf("prometheus-a-shard-1 changed hands: %v", ss)
		}
	})
}

// TestLongShardNamesKeepTheShardsThatFit: with a 33-character name and 12 shards, shards
// 0–9 have StatefulSet names of at most 52 characters and run; the names of shards 10 and
// 11 are too long for their pods' controller-revision-hash label, so they are not created
// and the Reconciled condition names them (issue 33: the Prometheus used to be refused
// whole, shard 0 included).
func TestLongShardNamesKeepTheShardsThatFit(t *testing.T) {
	name := strings.Repeat("s", 33)
	f := newFixture(t, Config{}, prom(name, func(p *monitoringv1.Prometheus) { p.Spec.Shards = ptr.To[int32](12) }))
	if err := f.reconcile("mon", name); err != nil {
		t.Fatal(err)
	}
	var sets appsv1.StatefulSetList
	if err := f.c.List(context.Background(), &sets); err != nil {
		t.Fatal(err)
	}
	if len(sets.Items) != 10 {
		t.Fatalf("%d StatefulSets, want shards 0-9", len(sets.Items))
	}
	c := f.condition(name)
	long := "prometheus-" + name + "-shard-10, prometheus-" + name + "-shard-11"
	if c.Status != monitoringv1.ConditionTrue || c.Reason != ReasonShardsNotCreated || !strings.Contains(c.Message, long) {
		t.Fatalf("condition %+v, want ShardsNotCreated naming %s", c, long)
	}
}
