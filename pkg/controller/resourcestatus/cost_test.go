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

	"github.com/lookout-operator/lookout/pkg/monitorcost"
	"github.com/lookout-operator/lookout/pkg/selection"
	"github.com/lookout-operator/lookout/pkg/targethealth"
)

// costSnapshot is a poll that found the given costs of ServiceMonitors in namespace app.
func costSnapshot(l monitorcost.Limits, costs map[string]monitorcost.Cost) *monitorcost.Snapshot {
	s := monitorcost.NewSnapshot(l)
	for name, c := range costs {
		s.Monitors[monitorcost.Key{Kind: "ServiceMonitor", Namespace: "app", Name: name}] = &c
	}
	return s
}

func costCond(status monitoringv1.ConditionStatus, reason, msg string, at metav1.Time) monitoringv1.ConfigResourceCondition {
	return monitoringv1.ConfigResourceCondition{Type: "SampleCost", Status: status, Reason: reason, Message: msg, ObservedGeneration: 1, LastTransitionTime: at}
}

// TestStorePublishCostQueuesOnlyChanges: a poll queues the accepted monitors whose
// rounded figures changed, nothing when they only wobble, every one when the
// Prometheus's limits change.
func TestStorePublishCostQueuesOnlyChanges(t *testing.T) {
	s := NewStore()
	s.EnableCost()
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("ServiceMonitor").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("a", selection.Accepted), verdict("b", selection.Accepted), verdict("bad", selection.InvalidConfiguration)})
	drain(q)
	a := monitorcost.Cost{Samples: 1234, SeriesAdded: 3, MaxTargetSamples: 700, Targets: 2, Scraped: 2}
	b := monitorcost.Cost{Samples: 50, MaxTargetSamples: 50, Targets: 1, Scraped: 1}
	s.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"a": a, "b": b, "bad": b}))
	if got := drain(q); len(got) != 2 || !got["a"] || !got["b"] {
		t.Fatalf("first poll queued %v, want a and b (not the rejected one)", got)
	}
	a.Samples, a.MaxTargetSamples = 1241, 703 // still 1,200 and 700
	s.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"a": a, "b": b}))
	if got := drain(q); len(got) != 0 {
		t.Fatalf("a wobble queued %v", got)
	}
	b.Samples, b.MaxTargetSamples = 51, 51
	s.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"a": a, "b": b}))
	if got := drain(q); len(got) != 1 || !got["b"] {
		t.Fatalf("queued %v, want b", got)
	}
	s.PublishCost(promA, costSnapshot(monitorcost.Limits{Enforced: 1000}, map[string]monitorcost.Cost{"a": a, "b": b}))
	if got := drain(q); len(got) != 2 {
		t.Fatalf("a new enforcedSampleLimit queued %v, want a and b", got)
	}
	lookup := s.costOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "a"})
	if c, l, report, _ := lookup(promA); !report || c != a.Rounded() || l.Enforced != 1000 {
		t.Fatalf("cost of a: %+v %+v %v", c, l, report)
	}
	if _, _, report, keep := lookup(promB); report || !keep {
		t.Fatalf("an owner not polled yet: report %v keep %v", report, keep)
	}
	if _, _, report, keep := s.costOf("PrometheusRule", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report || keep {
		t.Fatal("PrometheusRules have no sample cost")
	}
	s.Forget(promA)
	if _, _, report, _ := s.costOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report {
		t.Fatal("a forgotten owner still has costs")
	}
	if _, _, report, keep := NewStore().costOf("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "a"})(promA); report || keep {
		t.Fatal("a store without a cost poller reports or keeps costs")
	}
}

// TestWithCost: the SampleCost condition after Accepted (and TargetsHealthy), with the
// limit in force from the monitor's own sampleLimit, kept while there is nothing to
// report, gone when the feature is off or the object is rejected.
func TestWithCost(t *testing.T) {
	state := func(Owner) OwnerState { return OwnerManaged }
	later := metav1.NewTime(t0.Add(time.Hour))
	accepted := selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}
	rejected := accepted
	rejected.Reason, rejected.Message = selection.InvalidConfiguration, "bad regex"
	acceptedA := binding(promA, "True", "Accepted", "", t0)
	c := monitorcost.Cost{Samples: 1200, SeriesAdded: 56, MaxTargetSamples: 900, Targets: 2, Scraped: 2}
	report := func(l monitorcost.Limits) costLookup {
		return func(Owner) (monitorcost.Cost, monitorcost.Limits, bool, bool) { return c, l, true, false }
	}
	keep := func(Owner) (monitorcost.Cost, monitorcost.Limits, bool, bool) {
		return monitorcost.Cost{}, monitorcost.Limits{}, false, true
	}
	within := costCond("True", "WithinSampleLimit", "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 9% of sampleLimit 10,000)", t0)
	ten := int64(10000)
	cases := []struct {
		name        string
		live        monitoringv1.WorkloadBinding
		verdict     selection.Verdict
		own         *int64
		cost        costLookup
		want        []monitoringv1.ConfigResourceCondition
		wantChanged bool
	}{{
		name: "first cost", live: acceptedA, verdict: accepted, own: &ten, cost: report(monitorcost.Limits{}),
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], costCond("True", "WithinSampleLimit", within.Message, later)},
		wantChanged: true,
	}, {
		name: "same cost: no write", live: withHealth(acceptedA, within), verdict: accepted, own: &ten, cost: report(monitorcost.Limits{}),
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], within},
	}, {
		name: "enforcedSampleLimit 1,000: near the limit", live: withHealth(acceptedA, within), verdict: accepted, own: &ten, cost: report(monitorcost.Limits{Enforced: 1000}),
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0],
			costCond("False", "NearSampleLimit", "1,200 samples, 56 series added per scrape from 2 targets (busiest target at 90% of enforcedSampleLimit 1,000)", later)},
		wantChanged: true,
	}, {
		name: "no limit", live: withHealth(acceptedA, within), verdict: accepted, cost: report(monitorcost.Limits{}),
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0],
			costCond("True", "NoSampleLimit", "1,200 samples, 56 series added per scrape from 2 targets (no sample limit)", t0)},
		wantChanged: true,
	}, {
		name: "not polled yet since a restart: the live condition stays", live: withHealth(acceptedA, within), verdict: accepted, cost: keep,
		want: []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0], within},
	}, {
		name: "sample cost off: the condition goes", live: withHealth(acceptedA, within), verdict: accepted, cost: noCost,
		want:        []monitoringv1.ConfigResourceCondition{acceptedA.Conditions[0]},
		wantChanged: true,
	}, {
		name: "a rejected object has no sample cost", live: withHealth(acceptedA, within), verdict: rejected, cost: report(monitorcost.Limits{}),
		want:        []monitoringv1.ConfigResourceCondition{binding(promA, "False", "InvalidConfiguration", "bad regex", later).Conditions[0]},
		wantChanged: true,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			live := []monitoringv1.WorkloadBinding{c.live}
			verdicts := map[Owner]selection.Verdict{promA: c.verdict}
			p := planBindings(live, 1, verdicts, func(Owner) bool { return true }, state, noHealth, later)
			p = withCost(p, live, verdicts, c.own, c.cost, later)
			if len(p.desired) != 1 {
				t.Fatalf("desired %+v", p.desired)
			}
			got := p.desired[0].Conditions
			if len(got) != len(c.want) {
				t.Fatalf("conditions %+v\nwant %+v", got, c.want)
			}
			for i := range got {
				if !got[i].LastTransitionTime.Equal(&c.want[i].LastTransitionTime) || got[i].Type != c.want[i].Type || got[i].Status != c.want[i].Status ||
					got[i].Reason != c.want[i].Reason || got[i].Message != c.want[i].Message || got[i].ObservedGeneration != c.want[i].ObservedGeneration {
					t.Errorf("condition %d: %+v\nwant %+v", i, got[i], c.want[i])
				}
			}
			if p.changed() != c.wantChanged {
				t.Errorf("changed %v, want %v", p.changed(), c.wantChanged)
			}
		})
	}
}

// TestReconcileWritesCostOnce: the status reconciler applies SampleCost once, and not
// again for a poll whose figures round the same.
func TestReconcileWritesCostOnce(t *testing.T) {
	ctx := context.Background()
	limit := int64(1000)
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	sm.Spec.SampleLimit = &limit
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.EnableCost()
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
	store.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"x": {Samples: 1700, SeriesAdded: 2, MaxTargetSamples: 850, Targets: 2, Scraped: 2}}))
	reconcileTwice()
	store.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"x": {Samples: 1702, SeriesAdded: 2, MaxTargetSamples: 851, Targets: 2, Scraped: 2}}))
	reconcileTwice()
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 2 {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	want := "1,700 samples, 2 series added per scrape from 2 targets (busiest target at 85% of sampleLimit 1,000)"
	if k := got.Status.Bindings[0].Conditions[1]; k.Type != "SampleCost" || k.Status != "False" || k.Reason != "NearSampleLimit" || k.Message != want {
		t.Fatalf("SampleCost %+v", k)
	}
	if n := applies.Load(); n != 2 {
		t.Fatalf("%d status applies, want 2 (Accepted, then SampleCost)", n)
	}
	if got := SampleCostMessage(store, "ServiceMonitor", "app", "x", &limit, promA); got != "False NearSampleLimit "+want {
		t.Errorf("SampleCostMessage: %q", got)
	}
}

// costRefusingClient refuses, as the API server with a CRD that knows TargetsHealthy but
// not SampleCost does, a status that holds a SampleCost condition.
type costRefusingClient struct{ client.Client }

func (c costRefusingClient) Status() client.SubResourceWriter {
	return costRefusingStatus{c.Client.Status()}
}

type costRefusingStatus struct{ client.SubResourceWriter }

func (s costRefusingStatus) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	b, _ := json.Marshal(obj)
	if strings.Contains(string(b), "SampleCost") {
		return apierrors.NewInvalid(schema.GroupKind{Group: "monitoring.coreos.com", Kind: "ServiceMonitor"}, "x", field.ErrorList{
			field.NotSupported(field.NewPath("status", "bindings").Index(0).Child("conditions").Index(1).Child("type"), "SampleCost", []string{"Accepted", "TargetsHealthy"})})
	}
	return s.SubResourceWriter.Apply(ctx, obj, opts...)
}

// TestOlderCRDTurnsOnlyCostOff: a CRD of an older Lookout (TargetsHealthy but no
// SampleCost) turns sample cost off for the kind, and target health stays.
func TestOlderCRDTurnsOnlyCostOff(t *testing.T) {
	ctx := context.Background()
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.EnableHealth()
	store.EnableCost()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.Accepted}})
	store.PublishHealth(promA, snapshot(targethealth.Target{ScrapePool: "serviceMonitor/app/x/0", Health: "up"}))
	store.PublishCost(promA, costSnapshot(monitorcost.Limits{}, map[string]monitorcost.Cost{"x": {Samples: 10, Targets: 1, Scraped: 1}}))
	r := New(Deps{Client: costRefusingClient{c}, Store: store, Clock: clocktesting.NewFakeClock(t0.Time),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 || len(got.Status.Bindings[0].Conditions) != 2 || got.Status.Bindings[0].Conditions[1].Type != "TargetsHealthy" {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	if _, _, report, _ := store.costOf("PodMonitor", req.NamespacedName)(promA); !report {
		t.Fatal("PodMonitors lost sample cost too")
	}
}
