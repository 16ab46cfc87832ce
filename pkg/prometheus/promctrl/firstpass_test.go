package promctrl

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// TestFirstPassWait: the wait ends when every name has been reconciled, in any order and
// whether before or during the wait; it gives up at its limit and when its context ends.
func TestFirstPassWait(t *testing.T) {
	a, b := types.NamespacedName{Namespace: "ns", Name: "a"}, types.NamespacedName{Namespace: "ns", Name: "b"}
	f := newFirstPass()
	f.reconciled(b)
	go func() {
		time.Sleep(20 * time.Millisecond)
		f.reconciled(b) // again: no new name
		f.reconciled(a)
	}()
	if !f.wait(context.Background(), []types.NamespacedName{a, b}, time.Minute) {
		t.Fatal("the wait gave up though both were reconciled")
	}
	if !newFirstPass().wait(context.Background(), nil, time.Minute) {
		t.Error("with nothing to wait for the wait did not end at once")
	}
	start := time.Now()
	if newFirstPass().wait(context.Background(), []types.NamespacedName{a}, 50*time.Millisecond) || time.Since(start) > 5*time.Second {
		t.Error("the wait for an object never reconciled did not give up at its limit")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if newFirstPass().wait(ctx, []types.NamespacedName{a}, time.Minute) {
		t.Error("the wait reported success after its context ended")
	}
}
