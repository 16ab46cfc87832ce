package resourcestatus

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/lookout-operator/lookout/pkg/selection"
)

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a longer message", 10, "a longe…"},
		{"ααααα", 6, "α…"}, // never half a character
	} {
		if got := Truncate(c.in, c.n); got != c.want || len(got) > c.n || !utf8.ValidString(got) {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestLongRejectionFitsStatusAndEvent: a rejection message quoting megabytes of the
// tenant's input (here 2 MB) still gives the object its binding, cut to MaxMessageBytes,
// and a Warning event the API server accepts (a note of at most 1,024 bytes), both naming
// the field first.
func TestLongRejectionFitsStatusAndEvent(t *testing.T) {
	ctx := context.Background()
	msg := `endpoints[0]: relabelings[0]: invalid regex "` + strings.Repeat("é", 1<<20) + `"`
	sm := &monitoringv1.ServiceMonitor{ObjectMeta: metav1.ObjectMeta{Namespace: "app", Name: "x", Generation: 1}}
	c := fake.NewClientBuilder().WithScheme(newScheme(t)).WithObjects(sm).WithStatusSubresource(sm).Build()
	store := NewStore()
	store.Publish(promA, "ServiceMonitor", []selection.Verdict{{Kind: "ServiceMonitor", Namespace: "app", Name: "x", Generation: 1, Reason: selection.InvalidConfiguration, Message: msg}})
	rec := events.NewFakeRecorder(10)
	r := New(Deps{Client: c, Store: store, Recorder: rec, Clock: clocktesting.NewFakeClock(t0.Time),
		Owners: func(context.Context, Owner) (OwnerState, error) { return OwnerManaged, nil }}, Kinds[0])
	req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: "app", Name: "x"}}
	if _, err := r.Reconcile(ctx, req); err != nil {
		t.Fatal(err)
	}
	got := &monitoringv1.ServiceMonitor{}
	if err := c.Get(ctx, req.NamespacedName, got); err != nil {
		t.Fatal(err)
	}
	if len(got.Status.Bindings) != 1 {
		t.Fatalf("bindings %+v", got.Status.Bindings)
	}
	m := got.Status.Bindings[0].Conditions[0].Message
	if len(m) > MaxMessageBytes || !strings.HasPrefix(m, `endpoints[0]: relabelings[0]: invalid regex "éé`) || !utf8.ValidString(m) {
		t.Errorf("condition message of %d bytes, starting %.60q", len(m), m)
	}
	select {
	case e := <-rec.Events:
		note := strings.TrimPrefix(e, "Warning InvalidConfiguration ")
		if len(note) > MaxEventNoteBytes || !strings.HasPrefix(note, "rejected by Prometheus mon/a: endpoints[0]: relabelings[0]") || !utf8.ValidString(note) {
			t.Errorf("event note of %d bytes: %.80q", len(note), note)
		}
	default:
		t.Fatal("no event")
	}
}

// TestOwnerKind: events name the owner's kind, whichever workload judged the object.
func TestOwnerKind(t *testing.T) {
	for resource, want := range map[string]string{"prometheuses": "Prometheus", "alertmanagers": "Alertmanager", "thanosrulers": "ThanosRuler", "widgets": "widgets"} {
		if got := ownerKind(resource); got != want {
			t.Errorf("ownerKind(%q) = %q, want %q", resource, got, want)
		}
	}
}
