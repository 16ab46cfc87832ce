package resourcestatus

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

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

	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

func healthCond(status monitoringv1.ConditionStatus, reason, msg string, at metav1.Time) monitoringv1.ConfigResourceCondition {
	return monitoringv1.ConfigResourceCondition{Type: "TargetsHealthy", Status: status, Reason: reason, Message: msg, ObservedGeneration: 1, LastTransitionTime: at}
}

func withHealth(b monitoringv1.WorkloadBinding, c monitoringv1.ConfigResourceCondition) monitoringv1.WorkloadBinding {
	b.Conditions = append(b.Conditions, c)
	return b
}

func reportHealth(h targethealth.Health) healthLookup {
	return func(Owner) (healthReport, bool, bool) { return h, true, false }
}

func keepHealth(Owner) (healthReport, bool, bool) { return nil, false, true }

// TestPlanBindingsHealth: the TargetsHealthy condition beside Accepted, with its exact
// messages, written only when the counts or the error class change.
func TestPlanBindingsHealth(t *testing.T) {
	state := func(Owner) OwnerState { return OwnerManaged }
	later := metav1.NewTime(t0.Add(time.Hour))
	accepted := selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}
	rejected := accepted
	rejected.Reason, rejected.Message = selection.InvalidConfiguration, "bad regex"
	up := targethealth.Health{State: targethealth.StateUp, Up: 2, Total: 2}
	refused := targethealth.Health{State: targethealth.StateDown, Up: 0, Total: 2, Class: "connection refused"}
	halfRefused := targethealth.Health{State: targethealth.StateDown, Up: 1, Total: 2, Class: "connection refused"}
	acceptedA := binding(promA, "True", "Accepted", "", t0)

	cases := []struct {
		name        string
		live        []monitoringv1.WorkloadBinding
		verdict     selection.Verdict
		health      healthLookup
		want        []monitoringv1.ConfigResourceCondition
		wantChanged bool
	}{{
		name:    "first health",
		live:    []monitoringv1.WorkloadBinding{acceptedA},
		verdict: accepted, health: reportHealth(up),
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], healthCond("True", "TargetsUp", "2/2 up", later)},
		wantChanged: true,
	}, {
		name:    "same health: no write",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("True", "TargetsUp", "2/2 up", t0))},
		verdict: accepted, health: reportHealth(up),
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], healthCond("True", "TargetsUp", "2/2 up", t0)},
	}, {
		name:    "targets refusing connections",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("True", "TargetsUp", "2/2 up", t0))},
		verdict: accepted, health: reportHealth(refused),
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], healthCond("False", "TargetsDown", "0/2 up: connection refused", later)},
		wantChanged: true,
	}, {
		name:    "a count change within False keeps the transition time",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("False", "TargetsDown", "0/2 up: connection refused", t0))},
		verdict: accepted, health: reportHealth(halfRefused),
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], healthCond("False", "TargetsDown", "1/2 up: connection refused", t0)},
		wantChanged: true,
	}, {
		name:    "not polled yet since a restart: the live condition stays",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("False", "TargetsDown", "0/2 up: connection refused", t0))},
		verdict: accepted, health: keepHealth,
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], healthCond("False", "TargetsDown", "0/2 up: connection refused", t0)},
	}, {
		name:    "target health off: the condition goes",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("True", "TargetsUp", "2/2 up", t0))},
		verdict: accepted, health: noHealth,
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0]},
		wantChanged: true,
	}, {
		name:    "a rejected object has no target health",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("True", "TargetsUp", "2/2 up", t0))},
		verdict: rejected, health: reportHealth(up),
		want:        []monitoringv1.ConfigResourceCondition{binding(promA, "False", "InvalidConfiguration", "bad regex", later).Conditions[0]},
		wantChanged: true,
	}, {
		name:    "unreachable",
		live:    []monitoringv1.WorkloadBinding{withHealth(acceptedA, healthCond("True", "TargetsUp", "2/2 up", t0))},
		verdict: accepted, health: reportHealth(targethealth.Health{State: targethealth.StateUnreachable, Class: "shard 0 (pod prometheus-a-0): connection refused"}),
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0],
			healthCond("Unknown", "PrometheusUnreachable", "Prometheus could not be asked for its targets: shard 0 (pod prometheus-a-0): connection refused", later)},
		wantChanged: true,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planBindings(c.live, 1, map[Owner]selection.Verdict{promA: c.verdict}, func(Owner) bool { return true }, state, c.health, later)
			if len(p.desired) != 1 {
				t.Fatalf("desired %+v", p.desired)
			}
			got := p.desired[0].Conditions
			if len(got) != len(c.want) {
				t.Fatalf("conditions %+v\nwant %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("condition %d: %+v\nwant %+v", i, got[i], c.want[i])
				}
			}
			if p.changed() != c.wantChanged {
				t.Fatalf("changed %v, want %v", p.changed(), c.wantChanged)
			}
		})
	}
}

func snapshot(targets ...targethealth.Target) *targethealth.Snapshot {
	s := targethealth.NewSnapshot()
	for _, t := range targets {
		s.AddTarget(t)
	}
	return s
}

// TestPublishHealthQueuesOnlyChanges: a poll queues the accepted objects whose health
// changed, and nothing when nothing changed.
func TestPublishHealthQueuesOnlyChanges(t *testing.T) {
	s := NewStore()
	s.EnableHealth()
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("ServiceMonitor").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("a", selection.Accepted), verdict("b", selection.Accepted), verdict("bad", selection.InvalidConfiguration)})
	drain(q)
	if got := s.HealthOwners(); len(got) != 1 || got[0] != promA {
		t.Fatalf("health owners %v", got)
	}
	up := func(name, addr string) targethealth.Target {
		return targethealth.Target{ScrapePool: "serviceMonitor/app/" + name + "/0", Health: "up"}
	}
	down := func(name, addr string) targethealth.Target {
		return targethealth.Target{ScrapePool: "serviceMonitor/app/" + name + "/0", Health: "down",
			LastError: `Get "http://` + addr + `/metrics": dial tcp ` + addr + `: connect: connection refused`}
	}
	s.PublishHealth(promA, snapshot(up("a", ""), down("b", "10.0.0.1:80")))
	if got := drain(q); len(got) != 2 || !got["a"] || !got["b"] {
		t.Fatalf("first poll queued %v, want a and b (not the rejected one)", got)
	}
	// The same health, the down target at another address: nothing to write.
	s.PublishHealth(promA, snapshot(up("a", ""), down("b", "10.0.0.2:8080")))
	if got := drain(q); len(got) != 0 {
		t.Fatalf("unchanged poll queued %v", got)
	}
	s.PublishHealth(promA, snapshot(up("a", ""), up("b", "")))
	if got := drain(q); len(got) != 1 || !got["b"] {
		t.Fatalf("queued %v, want b", got)
	}
	lookup := s.healthOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "b"})
	if h, report, _ := lookup(promA); !report || h != (targethealth.Health{State: targethealth.StateUp, Up: 1, Total: 1}) {
		t.Fatalf("health of b: %+v %v", h, report)
	}
	if _, report, keep := lookup(promB); report || !keep {
		t.Fatalf("an owner not polled yet: report %v keep %v", report, keep)
	}
	if _, report, keep := s.healthOf("PrometheusRule", types.NamespacedName{Namespace: "app", Name: "b"})(promA); report || keep {
		t.Fatal("PrometheusRules have no target health")
	}
	s.Forget(promA)
	if _, report, _ := s.healthOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "b"})(promA); report {
		t.Fatal("a forgotten owner still has health")
	}
}

// TestReconcileWritesHealthOnce: the status reconciler applies the TargetsHealthy
// condition once, and not again for the same health.
func TestReconcileWritesHealthOnce(t *testing.T) {
	ctx := context.Background()
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.EnableHealth()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}})
	var applies atomic.Int32
	r := New(Deps{Client: &countingClient{Client: c, applies: &applies}, Store: store, Clock: clocktesting.NewFakeClock(t0.Time),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	reconcileTwice := func() {
		t.Helper()
		for i := 0; i < 2; i++ {
			if _, err := r.Reconcile(ctx, req); err != nil {
				t.Fatal(err)
			}
		}
	}
	reconcileTwice() // Accepted only: no poll yet
	refused := `Get "http://10.0.0.1:80/metrics": dial tcp 10.0.0.1:80: connect: connection refused`
	store.PublishHealth(promA, snapshot(
		targethealth.Target{ScrapePool: "serviceMonitor/app/x/0", Health: "down", LastError: refused},
		targethealth.Target{ScrapePool: "serviceMonitor/app/x/0", Health: "down", LastError: refused}))
	reconcileTwice()
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 2 {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	if h := got.Status.Bindings[0].Conditions[1]; h.Type != "TargetsHealthy" || h.Status != "False" || h.Reason != "TargetsDown" || h.Message != "0/2 up: connection refused" {
		t.Fatalf("TargetsHealthy %+v", h)
	}
	if n := applies.Load(); n != 2 {
		t.Fatalf("%d status applies, want 2 (Accepted, then TargetsHealthy)", n)
	}
}

// refusingClient refuses, as the API server with prometheus-operator's CRDs does, a
// status that holds a TargetsHealthy condition.
type refusingClient struct{ client.Client }

func (c refusingClient) Status() client.SubResourceWriter {
	return refusingStatus{c.Client.Status()}
}

type refusingStatus struct{ client.SubResourceWriter }

func (s refusingStatus) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	b, _ := json.Marshal(obj)
	if strings.Contains(string(b), "TargetsHealthy") {
		return apierrors.NewInvalid(schema.GroupKind{Group: "monitoring.coreos.com", Kind: "ServiceMonitor"}, "x", field.ErrorList{
			field.NotSupported(field.NewPath("status", "bindings").Index(0).Child("conditions").Index(1).Child("type"), "TargetsHealthy", []string{"Accepted"})})
	}
	return s.SubResourceWriter.Apply(ctx, obj, opts...)
}

// TestUpstreamCRDTurnsHealthOff: with prometheus-operator's CRDs (the condition type enum
// is Accepted only), the first refused write turns target health off for the kind and the
// binding is written without it, instead of no binding at all.
func TestUpstreamCRDTurnsHealthOff(t *testing.T) {
	ctx := context.Background()
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.EnableHealth()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}})
	store.PublishHealth(promA, snapshot(targethealth.Target{ScrapePool: "serviceMonitor/app/x/0", Health: "up"}))
	r := New(Deps{Client: refusingClient{c}, Store: store, Clock: clocktesting.NewFakeClock(t0.Time),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 1 || got.Status.Bindings[0].Conditions[0].Type != monitoringv1.Accepted {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	// Another kind keeps target health.
	if _, report, _ := store.healthOf("PodMonitor", req.NamespacedName)(promA); !report {
		t.Fatal("PodMonitors lost target health too")
	}
}
