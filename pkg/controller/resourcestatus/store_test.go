package resourcestatus

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/selection"
)

var promA = Owner{Resource: "prometheuses", Namespace: "mon", Name: "a"}
var promB = Owner{Resource: "prometheuses", Namespace: "mon", Name: "b"}

func verdict(name string, r selection.Reason) selection.Verdict {
	return selection.Verdict{Kind: "ServiceMonitor", Namespace: "app", Name: name, Generation: 1, Reason: r}
}

func newQueue() workqueue.TypedRateLimitingInterface[reconcile.Request] {
	return workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[reconcile.Request]())
}

func drain(q workqueue.TypedRateLimitingInterface[reconcile.Request]) map[string]bool {
	out := map[string]bool{}
	for q.Len() > 0 {
		r, _ := q.Get()
		out[r.Name] = true
		q.Done(r)
		q.Forget(r)
	}
	return out
}

func TestStorePublishQueuesOnlyChanges(t *testing.T) {
	s := NewStore()
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("ServiceMonitor").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{
		verdict("used", selection.Accepted), verdict("bad", selection.InvalidConfiguration), verdict("other", selection.NotSelectedByLabels),
	})
	if got := drain(q); len(got) != 2 || !got["used"] || !got["bad"] {
		t.Fatalf("queued %v, want used and bad (not-selected objects get no binding)", got)
	}
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("used", selection.Accepted), verdict("bad", selection.InvalidConfiguration)})
	if got := drain(q); len(got) != 0 {
		t.Fatalf("republishing the same verdicts queued %v", got)
	}
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("used", selection.Accepted)})
	if got := drain(q); len(got) != 1 || !got["bad"] {
		t.Fatalf("queued %v, want bad (no longer selected)", got)
	}
	vs, published := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "used"})
	if len(vs) != 1 || vs[promA].Reason != selection.Accepted || !published(promA) || published(promB) {
		t.Fatalf("verdicts %v", vs)
	}
	s.Forget(promA)
	if got := drain(q); !got["used"] {
		t.Fatalf("forgetting the owner queued %v", got)
	}
	if vs, _ := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "used"}); len(vs) != 0 {
		t.Fatalf("verdicts after Forget: %v", vs)
	}
}

// Before a status controller starts (or when none ever does) changes wait in a set: many
// changes of few objects cost nothing more, and nothing blocks or leaks goroutines.
func TestStorePendingIsBoundedByObjects(t *testing.T) {
	s := NewStore()
	for i := 0; i < 9000; i++ {
		r := selection.Accepted
		if i%2 == 1 {
			r = selection.InvalidConfiguration
		}
		s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("x", r), verdict("y", r)})
	}
	if n := s.pendingLen(); n != 2 {
		t.Fatalf("pending %d, want 2", n)
	}
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("ServiceMonitor").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if got := drain(q); len(got) != 2 || s.pendingLen() != 0 {
		t.Fatalf("queued %v after start, pending %d", got, s.pendingLen())
	}
}

func TestNilStoreDiscards(t *testing.T) {
	var s *Store
	s.Publish(promA, "ServiceMonitor", []selection.Verdict{verdict("x", selection.Accepted)})
	s.Forget(promA)
	if vs, pub := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "x"}); len(vs) != 0 || pub(promA) {
		t.Fatal("a nil store returned verdicts")
	}
}

// A Publish of the same objects in the same order (a one-monitor change) takes the fast
// path: only the verdicts that changed are queued, and one that stops binding loses its
// binding, exactly as the full path would.
func TestStorePublishSameObjects(t *testing.T) {
	s := NewStore()
	q := newQueue()
	defer q.ShutDown()
	if err := s.Source("ServiceMonitor").Start(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	all := func(vs ...selection.Verdict) []selection.Verdict { return vs }
	s.Publish(promA, "ServiceMonitor", all(verdict("a", selection.Accepted), verdict("b", selection.Accepted), verdict("c", selection.NotSelectedByLabels)))
	drain(q)
	changed := verdict("b", selection.Accepted)
	changed.Generation = 2
	s.Publish(promA, "ServiceMonitor", all(verdict("a", selection.Accepted), changed, verdict("c", selection.NotSelectedByLabels)))
	if got := drain(q); len(got) != 1 || !got["b"] {
		t.Fatalf("queued %v, want b (its generation changed)", got)
	}
	vs, _ := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "b"})
	if vs[promA].Generation != 2 {
		t.Fatalf("b's verdict %+v, want generation 2", vs[promA])
	}
	// a stops being selected, c starts.
	s.Publish(promA, "ServiceMonitor", all(verdict("a", selection.NotSelectedByLabels), changed, verdict("c", selection.Accepted)))
	if got := drain(q); len(got) != 2 || !got["a"] || !got["c"] {
		t.Fatalf("queued %v, want a and c", got)
	}
	if vs, _ := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "a"}); len(vs) != 0 {
		t.Fatalf("a keeps a verdict %v after it stopped being selected", vs)
	}
	if vs, _ := s.Verdicts("ServiceMonitor", types.NamespacedName{Namespace: "app", Name: "c"}); vs[promA].Reason != selection.Accepted {
		t.Fatalf("c's verdict %v", vs)
	}
	// After Forget, the next Publish is a full one: everything binding is queued again.
	s.Forget(promA)
	drain(q)
	s.Publish(promA, "ServiceMonitor", all(verdict("a", selection.NotSelectedByLabels), changed, verdict("c", selection.Accepted)))
	if got := drain(q); len(got) != 2 || !got["b"] || !got["c"] {
		t.Fatalf("queued %v after Forget, want b and c", got)
	}
}
