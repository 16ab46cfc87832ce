package resourcestatus

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/priority"
	"github.com/lookout-operator/lookout/pkg/selection"
)

var t0 = metav1.NewTime(time.Unix(1_700_000_000, 0).UTC())

func binding(o Owner, status monitoringv1.ConditionStatus, reason, msg string, at metav1.Time) monitoringv1.WorkloadBinding {
	return monitoringv1.WorkloadBinding{Group: "monitoring.coreos.com", Resource: o.Resource, Namespace: o.Namespace, Name: o.Name,
		Conditions: []monitoringv1.ConfigResourceCondition{{Type: monitoringv1.Accepted, Status: status, Reason: reason, Message: msg, ObservedGeneration: 1, LastTransitionTime: at}}}
}

func TestPlanBindings(t *testing.T) {
	foreign := Owner{Resource: "prometheuses", Namespace: "mon", Name: "upstream"}
	gone := Owner{Resource: "prometheuses", Namespace: "mon", Name: "gone"}
	states := map[Owner]OwnerState{promA: OwnerManaged, promB: OwnerManaged, foreign: OwnerForeign, gone: OwnerGone}
	state := func(o Owner) OwnerState { return states[o] }
	later := metav1.NewTime(t0.Add(time.Hour))
	accepted := selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}
	rejected := accepted
	rejected.Reason, rejected.Message = selection.InvalidConfiguration, "bad regex"

	cases := []struct {
		name        string
		live        []monitoringv1.WorkloadBinding
		verdicts    map[Owner]selection.Verdict
		published   map[Owner]bool
		wantDesired []monitoringv1.WorkloadBinding
		wantChanged bool
	}{{
		name:        "first verdict",
		verdicts:    map[Owner]selection.Verdict{promA: accepted},
		published:   map[Owner]bool{promA: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", later)},
		wantChanged: true,
	}, {
		name:        "unchanged verdict keeps its transition time and writes nothing",
		live:        []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0)},
		verdicts:    map[Owner]selection.Verdict{promA: accepted},
		published:   map[Owner]bool{promA: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0)},
	}, {
		name:        "a transition gets a new time",
		live:        []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0)},
		verdicts:    map[Owner]selection.Verdict{promA: rejected},
		published:   map[Owner]bool{promA: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "False", "InvalidConfiguration", "bad regex", later)},
		wantChanged: true,
	}, {
		name:        "a managed owner that has not published since a restart keeps its binding",
		live:        []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0), binding(promB, "False", "InvalidConfiguration", "old", t0)},
		verdicts:    map[Owner]selection.Verdict{promA: accepted},
		published:   map[Owner]bool{promA: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0), binding(promB, "False", "InvalidConfiguration", "old", t0)},
	}, {
		name:        "a managed owner that published without this object drops its binding",
		live:        []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0), binding(promB, "True", "Accepted", "", t0)},
		verdicts:    map[Owner]selection.Verdict{promA: accepted},
		published:   map[Owner]bool{promA: true, promB: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0)},
		wantChanged: true,
	}, {
		name:        "a foreign binding is neither desired nor ours",
		live:        []monitoringv1.WorkloadBinding{binding(foreign, "True", "Accepted", "", t0), binding(promA, "True", "Accepted", "", t0)},
		verdicts:    map[Owner]selection.Verdict{promA: accepted},
		published:   map[Owner]bool{promA: true},
		wantDesired: []monitoringv1.WorkloadBinding{binding(promA, "True", "Accepted", "", t0)},
	}, {
		name:        "a binding of a deleted owner is removed",
		live:        []monitoringv1.WorkloadBinding{binding(gone, "True", "Accepted", "", t0)},
		wantChanged: true,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planBindings(c.live, 1, c.verdicts, func(o Owner) bool { return c.published[o] }, state, noHealth, later)
			if len(p.desired) != len(c.wantDesired) {
				t.Fatalf("desired %+v, want %+v", p.desired, c.wantDesired)
			}
			for i := range p.desired {
				if d, w := p.desired[i], c.wantDesired[i]; d.Name != w.Name || d.Conditions[0] != w.Conditions[0] {
					t.Fatalf("desired[%d] %+v, want %+v", i, d, w)
				}
			}
			if p.changed() != c.wantChanged {
				t.Fatalf("changed %v, want %v", p.changed(), c.wantChanged)
			}
		})
	}
}

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := monitoringv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestReconcileAppliesBindingsOnce(t *testing.T) {
	ctx := context.Background()
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.InvalidConfiguration, Message: "bad regex"}})
	var applies atomic.Int32
	counting := &countingClient{Client: c, applies: &applies}
	r := New(Deps{Client: counting, Store: store, Clock: clocktesting.NewFakeClock(t0.Time),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	for i := 0; i < 2; i++ {
		if _, err := r.Reconcile(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || got.Status.Bindings[0].Conditions[0].Reason != "InvalidConfiguration" || got.Status.Bindings[0].Conditions[0].Message != "bad regex" {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	if n := applies.Load(); n != 1 {
		t.Fatalf("%d status applies, want 1 (the second reconcile has nothing to change)", n)
	}
}

func TestReconcileRetriesWhenOwnersCannotBeRead(t *testing.T) {
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x"},
		Status: monitoringv1.ConfigResourceStatus{Bindings: []monitoringv1.WorkloadBinding{binding(promB, "True", "Accepted", "", t0)}}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	r := New(Deps{Client: c, Store: NewStore(),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerGone, errors.New("cache not synced") }}, Kinds[0])
	_, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}})
	if err == nil {
		t.Fatal("want an error: an unreadable owner must not be taken for a deleted one")
	}
	got := &monitoringv1.ServiceMonitor{}
	_ = c.Get(context.Background(), client.ObjectKeyFromObject(sm), got)
	if len(got.Status.Bindings) != 1 {
		t.Fatalf("the binding was removed: %+v", got.Status.Bindings)
	}
}

// A status write waits while a configuration reconcile holds the gate, and goes ahead as
// soon as it leaves.
func TestReconcileWaitsForConfigurationReconciles(t *testing.T) {
	ctx := context.Background()
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}})
	var applies atomic.Int32
	gate := &priority.Gate{}
	r := New(Deps{Client: &countingClient{Client: c, applies: &applies}, Store: store, Gate: gate,
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	leave := gate.Enter()
	done := make(chan error, 1)
	go func() {
		_, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	if n := applies.Load(); n != 0 {
		t.Fatalf("%d status writes while a configuration reconcile ran, want 0", n)
	}
	leave()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(MaxGateWait / 2):
		t.Fatal("the status write did not go ahead once the configuration reconcile ended")
	}
	if n := applies.Load(); n != 1 {
		t.Fatalf("%d status writes, want 1", n)
	}
}

type countingClient struct {
	client.Client
	applies *atomic.Int32
}

func (c *countingClient) Status() client.SubResourceWriter {
	return &countingStatus{SubResourceWriter: c.Client.Status(), applies: c.applies}
}

type countingStatus struct {
	client.SubResourceWriter
	applies *atomic.Int32
}

func (s *countingStatus) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	s.applies.Add(1)
	return s.SubResourceWriter.Apply(ctx, obj, opts...)
}
